import { randomInt } from 'node:crypto';
import { constants } from 'node:fs';
import { access, appendFile, mkdir, readFile } from 'node:fs/promises';
import { isAppError } from '../contract/app-error.js';
import { AppError } from '../contract/app-error.js';
import { defaultScenarios } from '../conformance/cases/list-scenario-files.js';
import { BUILT_IN_REPORTERS } from '../conformance/reporters/built-in-reporters.js';
import { fieldValueProblem } from '../conformance/cases/scenario-format.js';
import type { PlanOptions } from '../conformance/cases/plan-run.js';
import type { RunResult } from '../conformance/run-result.js';
import { runConformance } from '../conformance/run-conformance.js';
import { parseShard } from '../conformance/cases/shard-cases.js';
import { listCases } from './list-cases.js';
import { resourceLines } from './resource-lines.js';
import { loadContract } from '../contract/load-contract.js';
import { mergeReports } from './merge-reports.js';
import { cutShortHint } from '../conformance/hints/cut-short-hint.js';
import { targetGoneHint } from '../conformance/hints/target-gone-hint.js';
import type { StopKind } from '../conformance/run-result.js';
import { createRedactor, type Redactor, SHORTEST_REDACTED_SECRET } from '../shared/create-redactor.js';
import { terminalText } from '../shared/terminal-text.js';
import { proxyCredentials } from '../conformance/http/create-dispatcher.js';
import { secretHeaderValues } from '../conformance/http/secret-headers.js';
import { isSeverity, SEVERITIES, type Severity } from '../conformance/judge/severity.js';
import { cliReporterContext } from './cli-reporter-context.js';
import { CONFORMANCE_HELP_FOOTER, CONFORMANCE_OPTIONS, DEFAULT_REPORTERS } from './conformance-options.js';
import { byteSizeOption, durationOption, integerOption, listOption, parseOptions, renderHelp } from './option-table.js';
import { reportDirIn, reportNotRun } from './report-not-run.js';
import { notingWrites, removeOtherReports, reportsLine } from './report-folder.js';
import { packageVersion } from './package-version.js';

// Which exit code each AppError code means; anything else caught at this edge is a bug (4).
const EXIT_CODES: Readonly<Record<string, number>> = {
  usage: 2,
  scenario_invalid: 2,
  contract_invalid: 2,
  report_unwritable: 2,
  target_untrusted: 2,
  target_not_tls: 2,
  target_unreachable: 3,
};

// A day: longer than any CI job runs, and a typo such as 600h is refused rather than taken as no bound at all.
const MAX_DEADLINE_MS = 24 * 3_600_000;
// A stopped run judged no contract: its configuration is wrong (2), or the target is not serving now (3).
const STOP_EXIT_CODES: Readonly<Record<StopKind, number>> = { configuration: 2, unavailable: 3 };

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
  const named = reportDirIn(argv);
  const run: { target?: string; redact: Redactor; reportDir: string; create: boolean } = {
    redact: (text) => text,
    reportDir: named ?? (CONFORMANCE_OPTIONS.find((row) => row.name === 'report-dir')?.default as string),
    create: named !== undefined,
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
    const plan: PlanOptions = {
      scenarios: listOption(options.scenarios, false) ?? defaultScenarios(),
      defaultScenarios: options.scenarios === undefined,
      contract: options.contract as string | undefined,
      tags: listOption(options.tags) ?? [],
      skipTags: listOption(options['skip-tags']) ?? [],
      readOnly: options['read-only'] === true,
      env: io.env,
      seed: integerOption('seed', options.seed as string | undefined, 0, 2 ** 32 - 1) ?? randomSeed(),
      generate: generateOption(listOption(options.generate), options['no-generate'] === true),
      maxCases: integerOption('max-cases', options['max-cases'] as string | undefined, 0, 1_000_000),
      cases: listOption(options.case) ?? [],
      shard: options.shard === undefined ? undefined : parseShard(options.shard as string),
      token: (options.token as string | undefined) ?? io.env.PETSTORE_API_KEY,
    };
    if (options.verbose) io.err(`${resourceLines(await loadContract(plan.contract)).join('\n')}\n`);
    // --list sends nothing, so it needs neither a target nor a key (a key only changes values, never which cases).
    if (options.list) return await listCases({ ...plan, token: plan.token ?? 'listing' }, io);
    const merged = listOption(options.merge, false);
    const target = options.target as string | undefined;
    run.target = target;
    if (!target && merged === undefined)
      throw new AppError('usage', '--target is required, e.g. --target http://127.0.0.1:4010/v1');
    const token = plan.token;
    // A contract none of whose operations takes a key (no security, or `security: []`) is run without one.
    const needsKey = async () => (await loadContract(plan.contract)).operations.some((op) => op.key !== undefined);
    if (!token && merged === undefined && (await needsKey()))
      throw new AppError('usage', 'no API key: give --token <key> or set PETSTORE_API_KEY');
    // For the messages this edge prints and writes (an error may quote a target's answer or a file); the run's
    // values are redacted by the run itself.
    const headers = headerOptions(listOption(options.header, false) ?? []);
    run.redact = createRedactor([token, ...secretHeaderValues(headers), ...proxyCredentials(io.env)]);
    // A key HTTP cannot carry (a line break, non-Latin-1 characters) or with spaces around it (lost from the header)
    // would fail every step as if the target were at fault.
    if (token !== undefined && (fieldValueProblem(token) !== undefined || token.trim() !== token)) {
      throw new AppError(
        'usage',
        `the API key (${options.token === undefined ? 'PETSTORE_API_KEY' : '--token'}) holds characters an HTTP header cannot carry: control characters, a line break, leading or trailing spaces, or characters outside Latin-1`,
      );
    }
    if (token !== undefined && token.length < SHORTEST_REDACTED_SECRET)
      io.err(`${shortKeyWarning(options.token === undefined)}\n`);
    const reporterNames = listOption(options.reporter) ?? DEFAULT_REPORTERS;
    const reporters = reporterNames.map((name) => {
      const reporter = BUILT_IN_REPORTERS[name];
      if (!reporter) throw new AppError('usage', `--reporter ${name}: not one of ${Object.keys(BUILT_IN_REPORTERS).join(', ')}`);
      return reporter;
    });
    const failOn = options['fail-on'] as string;
    if (!isSeverity(failOn)) throw new AppError('usage', `--fail-on must be one of ${SEVERITIES.join(', ')} (got '${failOn}')`);
    const reportDir = options['report-dir'] as string;
    run.reportDir = reportDir;
    const stepSummaryFile = io.env.GITHUB_STEP_SUMMARY || undefined;
    await checkWritable(
      reporters.some((r) => r.name !== 'console') ? reportDir : undefined,
      reporters.some((r) => r.name === 'markdown') ? stepSummaryFile : undefined,
    );
    await removeOtherReports(reportDir, reporters);
    const { context: reporterContext, written } = notingWrites(cliReporterContext(reportDir, stepSummaryFile, io));
    // Without the console, the run would print nothing at all: one line says how it went and where the reports are.
    const finish = (result: RunResult) => {
      if (!reporterNames.includes('console')) io.out(`${terminalText(run.redact(reportsLine(result, written)))}\n`);
      return exitCodeOf(result, io, run.redact);
    };
    if (merged !== undefined) return finish(await mergeReports(merged, reporters, reporterContext));
    const waitMs = durationOption('wait', options.wait as string | undefined);
    const result = await runConformance({
      ...plan,
      target: target as string,
      token,
      failOn: failOn as Severity,
      timeoutMs: durationOption('timeout', options.timeout as string) as number,
      deadlineMs: durationOption('deadline', options.deadline as string, MAX_DEADLINE_MS),
      maxResponseTimeMs: durationOption('max-response-time', options['max-response-time'] as string) as number,
      concurrency: integerOption('concurrency', options.concurrency as string, 1, 256) as number,
      rateLimit: integerOption('rate-limit', options['rate-limit'] as string | undefined, 1, 100_000),
      cleanup: options['no-cleanup'] !== true,
      maxFailures: integerOption('max-failures', options['max-failures'] as string | undefined, 1, 1_000_000),
      http: {
        headers,
        insecure: options.insecure === true,
        ca: await caOption(options.ca as string | undefined),
        caFile: options.ca as string | undefined,
        maxResponseBytes: byteSizeOption('max-response-bytes', options['max-response-bytes'] as string, Number.NaN),
      },
      reporters,
      reporterContext,
      version: packageVersion(),
      wait:
        waitMs === undefined
          ? undefined
          : {
              ms: waitMs,
              onWaiting: (url, ms) =>
                io.err(`conformance: waiting up to ${Math.round(ms / 1000)}s for ${terminalText(run.redact(url))} to answer\n`),
            },
    });
    return finish(result);
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

/**
 * Once, at the start, without the key: below SHORTEST_REDACTED_SECRET characters it is masked where it is sent,
 * but a target that echoes it back is not redacted (it could not be told from the words around it).
 */
function shortKeyWarning(fromEnv: boolean): string {
  return `conformance: warning: the API key (${fromEnv ? 'PETSTORE_API_KEY' : '--token'}) is shorter than ${SHORTEST_REDACTED_SECRET} characters: it is masked where it is sent (Authorization, curl lines), but not redacted where a target echoes it back in a body or header; use a key of ${SHORTEST_REDACTED_SECRET} characters or more`;
}

function exitCodeOf(result: RunResult, io: CliIo, redact: Redactor): number {
  if (result.stopped) {
    // A configuration mistake (a refused key, a --target without /v1, a sign-in page) or a target not serving now,
    // not a broken contract: the reports say so too.
    io.err(`conformance: ${terminalText(redact(result.stopped.reason))}\n`);
    return STOP_EXIT_CODES[result.stopped.kind];
  }
  if (result.targetGone) {
    // The cases it cut short are not the contract's failures: 3, unless cases had failed on the contract before.
    io.err(`conformance: ${terminalText(redact(targetGoneHint(result.targetGone)))}\n`);
    return result.targetGone.failedBefore > 0 ? 1 : 3;
  }
  if (result.verdict === 'passed') return 0;
  // --deadline reached and nothing failed on the contract: the target was too slow to judge, not shown wrong. An
  // operation given up after timeouts did fail: it did not answer.
  const cut = result.cutShort?.reasons ?? [];
  if (cut.length > 0 && cut.every((r) => r.by === 'deadline') && result.totals.failed === 0) {
    io.err(`conformance: ${terminalText(cutShortHint(result.cutShort) as string)}\n`);
    return 3;
  }
  return 1;
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

// --no-generate with --generate contradicts itself: refused rather than one of them silently winning.
function generateOption(kinds: string[] | undefined, none: boolean): string[] | undefined {
  if (none && kinds !== undefined)
    throw new AppError('usage', `--no-generate and --generate ${kinds.join(',')} contradict each other: give one`);
  return none ? [] : kinds;
}

function randomSeed(): number {
  return randomInt(0, 2 ** 32 - 1);
}
