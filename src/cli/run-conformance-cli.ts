import { randomInt } from 'node:crypto';
import { constants } from 'node:fs';
import { access, appendFile, mkdir, writeFile } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { isAppError } from '../contract/app-error.js';
import { AppError } from '../contract/app-error.js';
import { defaultScenarios } from '../conformance/list-scenario-files.js';
import { BUILT_IN_REPORTERS } from '../conformance/reporters/built-in-reporters.js';
import { fieldValueProblem } from '../conformance/scenario-format.js';
import type { ReporterContext } from '../conformance/reporters/reporter.js';
import { runConformance } from '../conformance/run-conformance.js';
import { isSeverity, SEVERITIES, type Severity } from '../conformance/severity.js';
import { integerOption, type OptionRow, parseOptions, renderHelp } from './option-table.js';
import { packageVersion } from './package-version.js';

const DEFAULT_REPORTERS = ['console', 'json', 'junit', 'markdown', 'html'];

const OPTIONS: readonly OptionRow[] = [
  { name: 'target', short: 't', type: 'string', value: 'url', description: 'base URL of the target, including /v1 (required)' },
  { name: 'token', type: 'string', value: 'key', description: 'API key sent as Bearer (default: PETSTORE_API_KEY)' },
  {
    name: 'scenarios',
    type: 'string',
    value: 'dir|glob',
    description: 'scenario folder, file or glob (default ./conformance/, else the shipped suite)',
  },
  { name: 'report-dir', type: 'string', value: 'dir', description: 'where reports are written (default reports/)' },
  {
    name: 'reporter',
    short: 'r',
    type: 'string',
    multiple: true,
    value: 'name',
    description: `${Object.keys(BUILT_IN_REPORTERS).join(', ')}; repeat or comma-separate (default: all)`,
  },
  {
    name: 'fail-on',
    type: 'string',
    value: 'severity',
    description: `${SEVERITIES.join(', ')}: lowest that fails (default medium)`,
  },
  { name: 'tags', type: 'string', multiple: true, value: 'tags', description: 'run only scenarios with one of these tags' },
  { name: 'skip-tags', type: 'string', multiple: true, value: 'tags', description: 'skip scenarios with one of these tags' },
  { name: 'read-only', type: 'boolean', description: "skip scenarios tagged 'mutating' (safe against production data)" },
  { name: 'timeout', type: 'string', value: 'ms', description: 'per request, in ms or with s (default 10s)' },
  { name: 'max-response-time', type: 'string', value: 'ms', description: 'slower answers are a low finding (default 2000)' },
  { name: 'concurrency', short: 'c', type: 'string', value: 'n', description: 'scenarios run at once (default 4)' },
  { name: 'rate-limit', type: 'string', value: 'n', description: 'most requests per second (default: no limit)' },
  { name: 'contract', type: 'string', value: 'file', description: 'OpenAPI document (default openapi.yaml)' },
  {
    name: 'seed',
    type: 'string',
    value: 'n',
    description: 'seed of the generated cases; the same seed sends the same cases (default: random, printed)',
  },
  {
    name: 'generate',
    type: 'string',
    multiple: true,
    value: 'kinds',
    description: 'kinds of case derived from the contract; repeat or comma-separate (default: all)',
  },
  { name: 'no-generate', type: 'boolean', description: 'run the scenario files only, no generated cases' },
  { name: 'max-cases', type: 'string', value: 'n', description: 'run at most n generated cases (default: all)' },
  {
    name: 'case',
    type: 'string',
    multiple: true,
    value: 'id|glob',
    description: 'run only the cases whose id or name matches; repeat or comma-separate',
  },
  { name: 'max-failures', type: 'string', value: 'n', description: 'stop sending new cases after n failed ones' },
  { name: 'help', short: 'h', type: 'boolean', description: 'show this help' },
  { name: 'version', short: 'v', type: 'boolean', description: 'show the version' },
];

const FOOTER = `Environment:
  PETSTORE_API_KEY       the API key (prefer it to --token: command lines are visible to other users)
  GITHUB_STEP_SUMMARY    the Markdown summary is appended to this file when set

Exit codes: 0 no failure at or above --fail-on, 1 conformance failures, 2 usage, scenario or contract error,
3 target unreachable, 4 a bug in the runner.`;

// Which exit code each AppError code means; anything else caught at this edge is a bug (4).
const EXIT_CODES: Readonly<Record<string, number>> = {
  usage: 2,
  scenario_invalid: 2,
  contract_invalid: 2,
  report_unwritable: 2,
  target_unreachable: 3,
};

export interface CliIo {
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly out: (text: string) => void;
  readonly err: (text: string) => void;
}

const PROCESS_IO: CliIo = {
  env: process.env,
  out: (text) => process.stdout.write(text),
  err: (text) => process.stderr.write(text),
};

/** Returns the exit code. */
export async function runConformanceCli(argv: readonly string[], io: CliIo = PROCESS_IO): Promise<number> {
  try {
    const options = parseOptions(OPTIONS, argv);
    if (options.help) {
      io.out(
        renderHelp(
          'Usage: conformance --target <base-url> [options]\n\nChecks a Pet Store target against the contract.',
          OPTIONS,
          FOOTER,
        ),
      );
      return 0;
    }
    if (options.version) {
      io.out(`${packageVersion()}\n`);
      return 0;
    }
    const target = options.target as string | undefined;
    if (!target) throw new AppError('usage', '--target is required, e.g. --target http://127.0.0.1:4010/v1');
    const token = (options.token as string | undefined) ?? io.env.PETSTORE_API_KEY;
    if (!token) throw new AppError('usage', 'no API key: give --token <key> or set PETSTORE_API_KEY');
    // A key HTTP cannot carry (a line break, non-Latin-1 characters) or with spaces around it (lost from the header)
    // would fail every step as if the target were at fault.
    if (fieldValueProblem(token) !== undefined || token.trim() !== token) {
      throw new AppError(
        'usage',
        `the API key (${options.token === undefined ? 'PETSTORE_API_KEY' : '--token'}) holds characters an HTTP header cannot carry: control characters, a line break, leading or trailing spaces, or characters outside Latin-1`,
      );
    }
    const reporterNames = list(options.reporter) ?? DEFAULT_REPORTERS;
    const reporters = reporterNames.map((name) => {
      const reporter = BUILT_IN_REPORTERS[name];
      if (!reporter) throw new AppError('usage', `--reporter ${name}: not one of ${Object.keys(BUILT_IN_REPORTERS).join(', ')}`);
      return reporter;
    });
    const failOn = (options['fail-on'] as string | undefined) ?? 'medium';
    if (!isSeverity(failOn)) throw new AppError('usage', `--fail-on must be one of ${SEVERITIES.join(', ')} (got '${failOn}')`);
    const reportDir = (options['report-dir'] as string | undefined) ?? 'reports';
    const stepSummaryFile = io.env.GITHUB_STEP_SUMMARY || undefined;
    await checkWritable(
      reporters.some((r) => r.name !== 'console') ? reportDir : undefined,
      reporters.some((r) => r.name === 'markdown') ? stepSummaryFile : undefined,
    );
    const result = await runConformance({
      target,
      token,
      scenarios: (options.scenarios as string | undefined) ?? defaultScenarios(),
      contract: options.contract as string | undefined,
      failOn: failOn as Severity,
      tags: list(options.tags) ?? [],
      skipTags: list(options['skip-tags']) ?? [],
      readOnly: options['read-only'] === true,
      timeoutMs: duration('timeout', options.timeout as string | undefined) ?? 10_000,
      maxResponseTimeMs: duration('max-response-time', options['max-response-time'] as string | undefined) ?? 2000,
      concurrency: integerOption('concurrency', options.concurrency as string | undefined, 1, 256) ?? 4,
      rateLimit: integerOption('rate-limit', options['rate-limit'] as string | undefined, 1, 100_000),
      env: io.env,
      seed: integerOption('seed', options.seed as string | undefined, 0, 2 ** 32 - 1) ?? randomSeed(),
      generate: options['no-generate'] === true ? [] : (list(options.generate) ?? undefined),
      maxCases: integerOption('max-cases', options['max-cases'] as string | undefined, 0, 1_000_000),
      cases: list(options.case) ?? [],
      maxFailures: integerOption('max-failures', options['max-failures'] as string | undefined, 1, 1_000_000),
      reporters,
      reporterContext: reporterContext(reportDir, stepSummaryFile, io),
      version: packageVersion(),
    });
    // A wrong key or base URL is the configuration's fault, not the target's: exit 2, one line saying which.
    if (result.stopped) {
      io.err(`conformance: stopped before the cases: ${result.stopped.reason}\n`);
      return 2;
    }
    return result.verdict === 'passed' ? 0 : 1;
  } catch (error) {
    if (isAppError(error) && EXIT_CODES[error.code] !== undefined) {
      io.err(`conformance: ${error.message}\n${error.code === 'usage' ? 'Run conformance --help for the options.\n' : ''}`);
      return EXIT_CODES[error.code] as number;
    }
    io.err(`conformance: ${(error as Error)?.stack ?? String(error)}\n`);
    return 4;
  }
}

// Found before the run, not after it: by then mutating scenarios have changed the target for nothing.
async function checkWritable(reportDir: string | undefined, stepSummaryFile: string | undefined): Promise<void> {
  if (reportDir !== undefined) {
    await mkdir(reportDir, { recursive: true })
      .then(() => access(reportDir, constants.W_OK))
      .catch((error: NodeJS.ErrnoException) => {
        throw new AppError('usage', `--report-dir ${reportDir}: cannot write there (${error.code ?? error.message})`);
      });
  }
  if (stepSummaryFile !== undefined) {
    // Appending nothing creates the file if it can be created, and changes nothing if it exists.
    await appendFile(stepSummaryFile, '').catch((error: NodeJS.ErrnoException) => {
      throw new AppError('usage', `GITHUB_STEP_SUMMARY ${stepSummaryFile}: cannot write there (${error.code ?? error.message})`);
    });
  }
}

function reporterContext(reportDir: string, stepSummaryFile: string | undefined, io: CliIo): ReporterContext {
  return {
    reportDir,
    async writeFile(name, content) {
      const path = join(reportDir, name);
      await writeFile(path, content).catch((error: NodeJS.ErrnoException) => {
        throw new AppError('report_unwritable', `Failed to write ${path}: ${error.code ?? error.message}`);
      });
      return relative(process.cwd(), path) || path;
    },
    print: (line) => io.out(`${line}\n`),
    stepSummaryFile,
  };
}

function randomSeed(): number {
  return randomInt(0, 2 ** 32 - 1);
}

function list(value: string | boolean | string[] | undefined): string[] | undefined {
  if (!Array.isArray(value)) return undefined;
  return value
    .flatMap((v) => v.split(','))
    .map((v) => v.trim())
    .filter(Boolean);
}

function duration(name: string, text: string | undefined): number | undefined {
  if (text === undefined) return undefined;
  const match = /^(\d+)(ms|s)?$/.exec(text.trim());
  const value = match ? Number(match[1]) * (match[2] === 's' ? 1000 : 1) : Number.NaN;
  if (!(value >= 1 && value <= 600_000))
    throw new AppError('usage', `--${name} must be a duration such as 500, 500ms or 10s (got '${text}')`);
  return value;
}
