import { mkdtemp, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runConformanceCli } from '../../src/cli/run-conformance-cli.js';
import type { RunResult } from '../../src/conformance/run-result.js';
import { DEV_API_KEY } from '../../src/mock/mock-options.js';

export interface CliRun {
  readonly code: number;
  readonly out: string;
  readonly err: string;
  readonly reportDir: string;
  /** report.json, when the json reporter ran. */
  readonly report: () => Promise<RunResult>;
}

/** The conformance command in this process (its real option parsing and exit codes), reports in a fresh folder. */
export async function runCli(args: readonly string[], env: Record<string, string | undefined> = {}): Promise<CliRun> {
  const reportDir = await mkdtemp(join(tmpdir(), 'conformance-'));
  let out = '';
  let err = '';
  const code = await runConformanceCli(['--report-dir', reportDir, ...args], {
    env: { PETSTORE_API_KEY: DEV_API_KEY, ...env },
    out: (text) => {
      out += text;
    },
    err: (text) => {
      err += text;
    },
  });
  return {
    code,
    out,
    err,
    reportDir,
    report: async () => JSON.parse(await readFile(join(reportDir, 'report.json'), 'utf8')) as RunResult,
  };
}

/** The ids of the checks whose findings make the run fail. */
export function blockingCheckIds(report: RunResult): string[] {
  const ids = report.scenarios.flatMap((s) => s.findings.filter((f) => f.blocking).map((f) => f.checkId));
  return [...new Set(ids)].sort();
}

/** The ids of the checks of the blocking findings and of the consequences folded under them. */
export function namedCheckIds(report: RunResult): string[] {
  return report.scenarios.flatMap((s) =>
    s.findings.filter((f) => f.blocking).flatMap((f) => [f.checkId, ...f.consequences.map((c) => c.checkId)]),
  );
}
