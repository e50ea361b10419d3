import { mkdir } from 'node:fs/promises';
import { notifyReporters } from '../conformance/reporters/notify-reporters.js';
import { BUILT_IN_REPORTERS } from '../conformance/reporters/built-in-reporters.js';
import type { NotRun, Reporter } from '../conformance/reporters/reporter.js';
import type { Redactor } from '../shared/create-redactor.js';
import { cliReporterContext } from './cli-reporter-context.js';
import type { CliIo } from './run-conformance-cli.js';

/**
 * After exit 2, 3 or 4 the report folder must not keep an earlier run's "passed" reports: every file reporter
 * writes what this run's problem was. Into a folder that exists, or one --report-dir named whose parent exists
 * (a CI job that publishes that folder finds why the run did not happen; a typo in a path creates nothing
 * deeper), and best effort: the problem may be that it cannot be written.
 */
export async function reportNotRun(
  run: { target?: string; redact: Redactor; reportDir: string; create?: boolean },
  problem: Omit<NotRun, 'target'>,
  io: CliIo,
): Promise<void> {
  if (run.create === true) await mkdir(run.reportDir).catch(() => undefined);
  const context = cliReporterContext(run.reportDir, io.env.GITHUB_STEP_SUMMARY || undefined, io);
  const notRun: NotRun = { ...problem, target: run.target === undefined ? undefined : run.redact(run.target) };
  try {
    await notifyReporters(Object.values(BUILT_IN_REPORTERS) as Reporter[], 'onRunError', notRun, context);
  } catch {
    // Nothing more to say: the one line on stderr stands.
  }
}

// The folder the reports would have gone to, read without the parser (which may be what failed); the last one
// given wins, as with the parser.
export function reportDirIn(argv: readonly string[]): string | undefined {
  let dir: string | undefined;
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] as string;
    if (arg === '--report-dir') dir = argv[i + 1];
    else if (arg.startsWith('--report-dir=')) dir = arg.slice('--report-dir='.length);
  }
  return dir;
}
