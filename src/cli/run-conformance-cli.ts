import { randomInt } from 'node:crypto';
import { constants } from 'node:fs';
import { access, appendFile, mkdir, readFile, writeFile } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { isAppError } from '../contract/app-error.js';
import { AppError } from '../contract/app-error.js';
import { defaultScenarios } from '../conformance/list-scenario-files.js';
import { BUILT_IN_REPORTERS } from '../conformance/reporters/built-in-reporters.js';
import { fieldValueProblem } from '../conformance/scenario-format.js';
import type { NotRun, Reporter, ReporterContext } from '../conformance/reporters/reporter.js';
import { runConformance } from '../conformance/run-conformance.js';
import { createRedactor, type Redactor } from '../shared/create-redactor.js';
import { DEFAULT_MAX_RESPONSE_BYTES } from '../conformance/create-http-client.js';
import { secretHeaderValues } from '../conformance/secret-headers.js';
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
  {
    name: 'header',
    short: 'H',
    type: 'string',
    multiple: true,
    value: "'Name: value'",
    description: 'a header sent with every request (a step that sets it wins); repeatable',
  },
  { name: 'insecure', type: 'boolean', description: 'accept any TLS certificate (self-signed staging)' },
  { name: 'ca', type: 'string', value: 'file', description: 'PEM file of certificates to trust besides the usual ones' },
  {
    name: 'max-response-bytes',
    type: 'string',
    value: 'n',
    description: 'larger answers are a finding, read no further; bytes, or with KiB or MiB (default 10MiB)',
  },
  {
    name: 'max-failures',
    type: 'string',
    value: 'n',
    description: 'stop starting cases after n have failed (default: no limit)',
  },
  { name: 'help', short: 'h', type: 'boolean', description: 'show this help' },
  { name: 'version', short: 'v', type: 'boolean', description: 'show the version' },
];

const FOOTER = `Environment:
  PETSTORE_API_KEY       the API key (prefer it to --token: command lines are visible to other users)
  GITHUB_STEP_SUMMARY    the Markdown summary is appended to this file when set
  HTTP_PROXY, HTTPS_PROXY, NO_PROXY   proxies, as curl reads them (also in lower case)
  NODE_EXTRA_CA_CERTS    more certificates to trust, as for any Node.js program
  NO_COLOR               no colour in the console (there is colour only on a terminal anyway)

Exit codes: 0 no failure at or above --fail-on, 1 conformance failures, 2 usage, scenario, contract or
configuration error (a refused key, a --target without /v1), 3 target unreachable, 4 a bug in the runner.
After 2, 3 or 4 the reports say why the run did not happen.`;

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
  /** stdout is a terminal: the console may use colour (unless NO_COLOR is set). */
  readonly isTTY?: boolean;
}

const PROCESS_IO: CliIo = {
  env: process.env,
  out: (text) => process.stdout.write(text),
  err: (text) => process.stderr.write(text),
  isTTY: process.stdout.isTTY === true,
};

/** Returns the exit code. */
export async function runConformanceCli(argv: readonly string[], io: CliIo = PROCESS_IO): Promise<number> {
  const startedAt = new Date().toISOString();
  const run: { target?: string; redact: Redactor; reportDir: string } = {
    redact: (text) => text,
    reportDir: reportDirIn(argv) ?? 'reports',
  };
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
    run.target = target;
    if (!target) throw new AppError('usage', '--target is required, e.g. --target http://127.0.0.1:4010/v1');
    const token = (options.token as string | undefined) ?? io.env.PETSTORE_API_KEY;
    if (!token) throw new AppError('usage', 'no API key: give --token <key> or set PETSTORE_API_KEY');
    // Also over everything printed and written: a key in a scenario name or an error message stays out too.
    const headers = headerOptions(list(options.header, false) ?? []);
    run.redact = createRedactor([token, ...secretHeaderValues(headers)]);
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
    run.reportDir = reportDir;
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
      http: {
        headers,
        insecure: options.insecure === true,
        ca: await caOption(options.ca as string | undefined),
        maxResponseBytes: byteSize('max-response-bytes', options['max-response-bytes'] as string | undefined),
      },
      reporters,
      reporterContext: reporterContext(reportDir, stepSummaryFile, io, run.redact),
      version: packageVersion(),
    });
    if (result.stopped) {
      // A configuration mistake (a refused key, a --target without /v1), not a broken target: the reports say so too.
      io.err(`conformance: ${run.redact(result.stopped.reason)}\n`);
      return 2;
    }
    return result.verdict === 'passed' ? 0 : 1;
  } catch (error) {
    const known = isAppError(error) && EXIT_CODES[error.code] !== undefined;
    const code = known ? (EXIT_CODES[error.code] as number) : 4;
    const message = run.redact(known ? error.message : ((error as Error)?.stack ?? String(error)));
    io.err(`conformance: ${message}\n${known && error.code === 'usage' ? 'Run conformance --help for the options.\n' : ''}`);
    await reportNotRun(run, { exitCode: code, code: known ? error.code : 'bug', message, startedAt }, io);
    return code;
  }
}

/**
 * After exit 2, 3 or 4 the report folder must not keep an earlier run's "passed" reports: every file reporter
 * writes what this run's problem was. Only into a folder that exists (no earlier report can be in one that does
 * not: a typo in an option creates no folder), and best effort: the problem may be that it cannot be written.
 */
async function reportNotRun(
  run: { target?: string; redact: Redactor; reportDir: string },
  problem: Omit<NotRun, 'target'>,
  io: CliIo,
): Promise<void> {
  const context = reporterContext(run.reportDir, io.env.GITHUB_STEP_SUMMARY || undefined, io, run.redact);
  const notRun: NotRun = { ...problem, target: run.target === undefined ? undefined : run.redact(run.target) };
  try {
    for (const reporter of Object.values(BUILT_IN_REPORTERS) as Reporter[]) await reporter.onRunError?.(notRun, context);
  } catch {
    // Nothing more to say: the one line on stderr stands.
  }
}

// The folder the reports would have gone to, read without the parser (which may be what failed); the last one
// given wins, as with the parser.
function reportDirIn(argv: readonly string[]): string | undefined {
  let dir: string | undefined;
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] as string;
    if (arg === '--report-dir') dir = argv[i + 1];
    else if (arg.startsWith('--report-dir=')) dir = arg.slice('--report-dir='.length);
  }
  return dir;
}

// -H 'Name: value', as curl takes it. The name must be an RFC 9110 token and the value a valid field value.
function headerOptions(lines: readonly string[]): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const line of lines) {
    const colon = line.indexOf(':');
    const name = line.slice(0, colon).trim();
    const value = line.slice(colon + 1).trim();
    if (colon < 1 || !/^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/.test(name) || fieldValueProblem(value) !== undefined) {
      throw new AppError(
        'usage',
        `--header must be 'Name: value' with a valid header name and value (got '${line.slice(0, 40)}')`,
      );
    }
    headers[name.toLowerCase()] = value;
  }
  return headers;
}

async function caOption(file: string | undefined): Promise<string | undefined> {
  if (file === undefined) return undefined;
  const pem = await readFile(file, 'utf8').catch((error: NodeJS.ErrnoException) => {
    throw new AppError('usage', `--ca ${file}: cannot read it (${error.code ?? error.message})`);
  });
  if (!pem.includes('-----BEGIN CERTIFICATE-----')) throw new AppError('usage', `--ca ${file}: no PEM certificate in it`);
  return pem;
}

const BYTE_UNITS: Readonly<Record<string, number>> = { '': 1, b: 1, kib: 1024, k: 1024, mib: 1024 ** 2, m: 1024 ** 2 };

function byteSize(name: string, text: string | undefined): number {
  if (text === undefined) return DEFAULT_MAX_RESPONSE_BYTES;
  const match = /^(\d+)\s*([a-z]*)$/i.exec(text.trim());
  const unit = BYTE_UNITS[(match?.[2] ?? '').toLowerCase()];
  const value = match && unit ? Number(match[1]) * unit : Number.NaN;
  if (!(value >= 1024 && value <= 1024 ** 3)) {
    throw new AppError('usage', `--${name} must be a size from 1KiB to 1024MiB, such as 10MiB or 500000 (got '${text}')`);
  }
  return value;
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

function reporterContext(reportDir: string, stepSummaryFile: string | undefined, io: CliIo, redact: Redactor): ReporterContext {
  return {
    reportDir,
    async writeFile(name, content) {
      const path = join(reportDir, name);
      await writeFile(path, redact(content)).catch((error: NodeJS.ErrnoException) => {
        throw new AppError('report_unwritable', `Failed to write ${path}: ${error.code ?? error.message}`);
      });
      return relative(process.cwd(), path) || path;
    },
    print: (line) => io.out(`${redact(line)}\n`),
    stepSummaryFile,
    color: io.isTTY === true && !io.env.NO_COLOR,
  };
}

function randomSeed(): number {
  return randomInt(0, 2 ** 32 - 1);
}

function list(value: string | boolean | string[] | undefined, commas = true): string[] | undefined {
  if (!Array.isArray(value)) return undefined;
  return value
    .flatMap((v) => (commas ? v.split(',') : [v]))
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
