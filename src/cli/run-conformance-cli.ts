import { randomInt } from 'node:crypto';
import { constants } from 'node:fs';
import { access, appendFile, mkdir, readFile } from 'node:fs/promises';
import { isAppError } from '../contract/app-error.js';
import { AppError } from '../contract/app-error.js';
import { loadContract } from '../contract/load-contract.js';
import { summarizeResources } from '../contract/resources/describe-resources.js';
import { inferResources } from '../contract/resources/infer-resources.js';
import { defaultScenarios } from '../conformance/list-scenario-files.js';
import { BUILT_IN_REPORTERS } from '../conformance/reporters/built-in-reporters.js';
import { fieldValueProblem } from '../conformance/scenario-format.js';
import { runConformance } from '../conformance/run-conformance.js';
import { createRedactor, type Redactor } from '../shared/create-redactor.js';
import { terminalText } from '../shared/terminal-text.js';
import { DEFAULT_MAX_RESPONSE_BYTES } from '../conformance/create-http-client.js';
import { secretHeaderValues } from '../conformance/secret-headers.js';
import { isSeverity, SEVERITIES, type Severity } from '../conformance/severity.js';
import { cliReporterContext } from './cli-reporter-context.js';
import { CONFORMANCE_HELP_FOOTER, CONFORMANCE_OPTIONS, DEFAULT_REPORTERS } from './conformance-options.js';
import { byteSizeOption, durationOption, integerOption, listOption, parseOptions, renderHelp } from './option-table.js';
import { reportDirIn, reportNotRun } from './report-not-run.js';
import { packageVersion } from './package-version.js';

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
    const options = parseOptions(CONFORMANCE_OPTIONS, argv);
    if (options.help) {
      io.out(
        renderHelp(
          'Usage: conformance --target <base-url> [options]\n\nChecks a Pet Store target against the contract.',
          CONFORMANCE_OPTIONS,
          CONFORMANCE_HELP_FOOTER,
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
    const headers = headerOptions(listOption(options.header, false) ?? []);
    run.redact = createRedactor([token, ...secretHeaderValues(headers)]);
    // A key HTTP cannot carry (a line break, non-Latin-1 characters) or with spaces around it (lost from the header)
    // would fail every step as if the target were at fault.
    if (fieldValueProblem(token) !== undefined || token.trim() !== token) {
      throw new AppError(
        'usage',
        `the API key (${options.token === undefined ? 'PETSTORE_API_KEY' : '--token'}) holds characters an HTTP header cannot carry: control characters, a line break, leading or trailing spaces, or characters outside Latin-1`,
      );
    }
    const reporterNames = listOption(options.reporter) ?? DEFAULT_REPORTERS;
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
    if (reporters.some((r) => r.name === 'console')) {
      // The contract is loaded once per process: runConformance reuses this load.
      const model = inferResources(await loadContract(options.contract as string | undefined));
      io.out(`Resources inferred: ${terminalText(summarizeResources(model))}\n`);
    }
    const result = await runConformance({
      target,
      token,
      scenarios: (options.scenarios as string | undefined) ?? defaultScenarios(),
      contract: options.contract as string | undefined,
      failOn: failOn as Severity,
      tags: listOption(options.tags) ?? [],
      skipTags: listOption(options['skip-tags']) ?? [],
      readOnly: options['read-only'] === true,
      timeoutMs: durationOption('timeout', options.timeout as string | undefined) ?? 10_000,
      maxResponseTimeMs: durationOption('max-response-time', options['max-response-time'] as string | undefined) ?? 2000,
      concurrency: integerOption('concurrency', options.concurrency as string | undefined, 1, 256) ?? 4,
      rateLimit: integerOption('rate-limit', options['rate-limit'] as string | undefined, 1, 100_000),
      env: io.env,
      seed: integerOption('seed', options.seed as string | undefined, 0, 2 ** 32 - 1) ?? randomSeed(),
      generate: options['no-generate'] === true ? [] : (listOption(options.generate) ?? undefined),
      maxCases: integerOption('max-cases', options['max-cases'] as string | undefined, 0, 1_000_000),
      cases: listOption(options.case) ?? [],
      maxFailures: integerOption('max-failures', options['max-failures'] as string | undefined, 1, 1_000_000),
      http: {
        headers,
        insecure: options.insecure === true,
        ca: await caOption(options.ca as string | undefined),
        maxResponseBytes: byteSizeOption(
          'max-response-bytes',
          options['max-response-bytes'] as string | undefined,
          DEFAULT_MAX_RESPONSE_BYTES,
        ),
      },
      reporters,
      reporterContext: cliReporterContext(reportDir, stepSummaryFile, io, run.redact),
      version: packageVersion(),
    });
    if (result.stopped) {
      // A configuration mistake (a refused key, a --target without /v1), not a broken target: the reports say so too.
      io.err(`conformance: ${terminalText(run.redact(result.stopped.reason))}\n`);
      return 2;
    }
    return result.verdict === 'passed' ? 0 : 1;
  } catch (error) {
    const known = isAppError(error) && EXIT_CODES[error.code] !== undefined;
    const code = known ? (EXIT_CODES[error.code] as number) : 4;
    // One line, whatever text of a target or a file it quotes; a bug's stack keeps its lines.
    const message = run.redact(known ? terminalText(error.message) : ((error as Error)?.stack ?? String(error)));
    io.err(`conformance: ${message}\n${known && error.code === 'usage' ? 'Run conformance --help for the options.\n' : ''}`);
    await reportNotRun(run, { exitCode: code, code: known ? error.code : 'bug', message, startedAt }, io);
    return code;
  }
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

function randomSeed(): number {
  return randomInt(0, 2 ** 32 - 1);
}
