import { randomBytes } from 'node:crypto';
import { relative } from 'node:path';
import { AppError } from '../contract/app-error.js';
import type { Contract } from '../contract/load-contract.js';
import { summarizeResources } from '../contract/resources/describe-resources.js';
import { inferResources } from '../contract/resources/infer-resources.js';
import { BUILT_IN_CHECKS } from './judge/checks/built-in-checks.js';
import { type Check, createRunMemory } from './judge/checks/check.js';
import { createHttpClient, type HttpClientOptions } from './http/create-http-client.js';
import { cleanUp } from './clean-up.js';
import { createdResources } from './created-resources.js';
import { createJudge, type OnExchange } from './judge/create-judge.js';
import { curlTransport } from './judge/curl-line.js';
import { createRunBounds, formatDuration } from './create-run-bounds.js';
import { cutShortHint } from './hints/cut-short-hint.js';
import type { JudgeContext } from './judge/judge-exchange.js';
import { basePathHint } from './hints/base-path-hint.js';
import { credentialParametersHint } from './hints/credential-parameters-hint.js';
import { keyRefusedHint } from './hints/key-refused-hint.js';
import { unexercisedHint } from './hints/unexercised-hint.js';
import { likelyCauses } from './judge/likely-causes.js';
import { planRun } from './cases/plan-run.js';
import { waitForTarget } from './http/wait-for-target.js';
import { operationCoverage } from './judge/operation-coverage.js';
import { probeTarget } from './probe-target.js';
import { targetGoneHint } from './hints/target-gone-hint.js';
import { watchTarget } from './http/watch-target.js';
import { type RateLimited, rateLimitedHint } from './hints/rate-limited-hint.js';
import { notifyReporters } from './reporters/notify-reporters.js';
import type { Reporter, ReporterContext } from './reporters/reporter.js';
import type { CutShort, RunResult, RunSettings, ScenarioResult } from './run-result.js';
import { runPool } from './run-pool.js';
import { sendScenario, type ScenarioContext } from './run-scenario.js';
import { createJudgingQueue } from './judge/judging-queue.js';
import { envCredentials } from './http/secret-headers.js';
import type { Scenario } from './cases/scenario.js';
import { skipReason } from './cases/select-cases.js';
import type { Shard } from './cases/shard-cases.js';
import { SEVERITIES, type Severity } from './judge/severity.js';

export interface ConformanceOptions
  extends Omit<RunSettings, 'seed' | 'generate' | 'maxCases' | 'cases' | 'scenarios' | 'shard'> {
  /** Scenario folders, files or globs (--scenarios, repeatable). */
  readonly scenarios: string | readonly string[];
  /** --shard: run only this stable slice of the cases. */
  readonly shard?: Shard;
  /** Default: a random seed, recorded in the result. */
  readonly seed?: number;
  /** Kinds of generated case; default all, [] for none. */
  readonly generate?: readonly string[];
  readonly maxCases?: number | undefined;
  readonly cases?: readonly string[];
  /** Stop sending new cases once this many have failed (--max-failures); the rest are reported as skipped. */
  readonly maxFailures?: number;
  /** Passed to the HTTP client: headers on every request, TLS, the answer size cap. */
  readonly http?: Pick<HttpClientOptions, 'headers' | 'insecure' | 'ca' | 'maxResponseBytes'> & {
    /** The file --ca named: reproduce lines pass it to curl as --cacert. */
    readonly caFile?: string;
  };
  /** The base URL, including /v1. */
  readonly target: string;
  readonly token: string | undefined;
  /** Default openapi.yaml at the project root. */
  readonly contract?: string;
  readonly checks?: readonly Check[];
  readonly reporters?: readonly Reporter[];
  readonly reporterContext?: ReporterContext;
  readonly version: string;
  /** For `{{env.NAME}}` in scenario files (the CLI passes the process environment). */
  readonly env?: Readonly<Record<string, string | undefined>>;
  /** The scenarios were not named (--scenarios absent): files for operations the contract lacks are skipped, said in hints. */
  readonly defaultScenarios?: boolean;
  /** Sees every exchange with what its checks saw, its case and its step (the benchmark replays and re-checks them). */
  readonly onExchange?: OnExchange;
  /** Delete, at the end, what the run created where the contract documents a delete (--cleanup); default true. */
  readonly cleanup?: boolean;
  /** --wait: how long to wait for the target to answer any HTTP before the probe; told once when waiting starts. */
  readonly wait?: { readonly ms: number; readonly onWaiting?: (target: string, ms: number) => void };
}

/**
 * Phases, in order: load (the contract, the scenario files, the generated cases; any problem is AppError
 * 'contract_invalid' / 'scenario_invalid' / 'usage' before anything is sent), probe (is anything answering, with
 * this key, under this base URL?), the cases with bounded concurrency (steps in order within each), and the
 * reporters.
 */
export async function runConformance(options: ConformanceOptions): Promise<RunResult> {
  // The deadline counts from here: loading the contract is part of the time a CI job gives the run.
  const deadline =
    options.deadlineMs === undefined
      ? undefined
      : { at: performance.now() + options.deadlineMs, name: formatDuration(options.deadlineMs) };
  const target = checkTarget(options.target);
  const { contract, seed, kinds, cases, notes, notMade } = await planRun(options);
  const rateLimited: RateLimited = { resends: 0, waitedMs: 0 };
  const client = createHttpClient({
    token: options.token,
    timeoutMs: options.timeoutMs,
    connections: options.concurrency,
    rateLimit: options.rateLimit,
    ...options.http,
    secrets: envCredentials(cases, options.env ?? {}),
    deadline,
    onRateLimited: (waitedMs) => {
      rateLimited.resends++;
      rateLimited.waitedMs += waitedMs;
    },
  });
  const judging = createJudgingQueue();
  try {
    const startedAt = new Date();
    const started = performance.now();
    const reporters = options.reporters ?? [];
    const context = options.reporterContext ?? NO_OUTPUT;
    const judgeContext: JudgeContext = {
      checks: options.checks ?? BUILT_IN_CHECKS,
      settings: { timeoutMs: options.timeoutMs, maxResponseTimeMs: options.maxResponseTimeMs },
      failOn: options.failOn,
      run: createRunMemory(contract),
      redact: client.redact,
      redactPieces: client.redactPieces,
      // The dispatcher reads the proxy from process.env (create-dispatcher.ts): so do the reproduce lines.
      curlTransport: curlTransport({ target, caFile: options.http?.caFile, insecure: options.http?.insecure, env: process.env }),
    };
    const resources = inferResources(contract);
    const created = createdResources(resources.resources, contract.byId);
    const judge = createJudge(judgeContext, options.token, options.onExchange);
    const scenarioContext: ScenarioContext = {
      client,
      target,
      token: options.token,
      judge: (scenario, sent) => {
        for (const one of sent) created.note(one.step.operation.operationId, one.exchange);
        return judge(scenario, sent);
      },
      failOn: options.failOn,
      runId: randomBytes(4).toString('hex'),
      env: options.env ?? {},
    };
    if (options.wait !== undefined) {
      options.wait.onWaiting?.(target, options.wait.ms);
      await waitForTarget(client, target, options.wait.ms);
    }
    const probe = await probeTarget(contract, scenarioContext, options);
    // What reporters are handed is redacted value by value here, never as finished text: the target the user gave
    // (a key in its query) and the lines that quote it.
    const { redact } = client;
    const shownTarget = redact(target);
    const bounds = createRunBounds(deadline, options.timeoutMs);
    const watch = watchTarget(client, startedAt.getTime());
    const files = new Set(cases.map((s) => s.file)).size;
    await notifyReporters(reporters, 'onRunStart', { target: shownTarget, scenarios: cases.length + 1, files, seed }, context);
    await notifyReporters(reporters, 'onScenarioEnd', probe.result, context);
    let failures = probe.result.outcome === 'failed' ? 1 : 0;
    // The longest cases start first, so a chain of a hundred creates does not start last and run alone at the end;
    // results keep the cases' order.
    const results: ScenarioResult[] = new Array(cases.length);
    // Verdicts come from the judging queue in the order cases handed it their answers; reporters hear of each case
    // in that order, one after another.
    const settled: Promise<void>[] = [];
    let told = Promise.resolve();
    const finish = (index: number, result: ScenarioResult) => {
      if (result.outcome === 'failed') failures++;
      results[index] = result;
      told = told.then(() => notifyReporters(reporters, 'onScenarioEnd', result, context));
      // Awaited after the last case; until then a reporter's failure must not count as unhandled.
      told.catch(() => {});
    };
    const runOne = async ({ scenario, index }: { scenario: Scenario; index: number }) => {
      // --max-failures counts the failures of every case before this one: their verdicts are needed first.
      if (options.maxFailures !== undefined) {
        judging.flush();
        await Promise.all(settled);
      }
      const skipReason =
        probe.stopped !== undefined
          ? `not run: ${redact(probe.stopped.reason)}`
          : (reasonToSkip(scenario, options, probe.notServed) ??
            (options.maxFailures !== undefined && failures >= options.maxFailures
              ? `--max-failures ${options.maxFailures}: reached before this case`
              : bounds.refuse(scenario.steps.map((step) => step.operation.operationId))));
      const judged = skipReason
        ? new Promise<ScenarioResult>((resolve) => judging.add(() => resolve(skipped(scenario, skipReason)), 0, 0))
        : (await sendScenario(scenario, { ...scenarioContext, bounds, client: watch.clientFor(scenario.id), judging })).judged;
      const done = judged.then((result) => finish(index, result));
      // Awaited with the others; a failure before then (the run's own) must not count as unhandled.
      done.catch(() => {});
      settled.push(done);
    };
    const order = longestFirst(cases);
    await runPool(
      order.filter(({ scenario }) => !scenario.alone),
      options.concurrency,
      runOne,
    );
    // A case on a record every case shares (a single record at the top) would see other cases' writes: alone, last.
    await runPool(
      order.filter(({ scenario }) => scenario.alone),
      1,
      runOne,
    );
    judging.flush();
    await Promise.all(settled);
    judging.close();
    await told;
    const deletable = created.deletable();
    const cleanup =
      options.cleanup === false || deletable.length === 0
        ? undefined
        : await cleanUp(deletable, client, target, options.token, options.concurrency, contract.byId);
    const all = [probe.result, ...results];
    const coverage = operationCoverage(contract.operations, all, notMade);
    const targetGone = watch.gone(all);
    const result = summarise(all, {
      tool: { name: 'conformance', version: options.version },
      target: shownTarget,
      contract: {
        file: relative(process.cwd(), contract.file) || contract.file,
        title: contract.title,
        version: contract.version,
      },
      startedAt: startedAt.toISOString(),
      durationMs: performance.now() - started,
      settings: pickSettings(options, seed, kinds),
      resources: summarizeResources(resources),
      created: created.counts(),
      cleanup,
      coverage,
      stopped: probe.stopped === undefined ? undefined : { ...probe.stopped, reason: redact(probe.stopped.reason) },
      targetGone,
      cutShort: bounds.cutShort(),
      hints: [
        ...(targetGone === undefined ? [] : [targetGoneHint(targetGone)]),
        ...notes,
        ...[credentialParametersHint(contract.operations, options.http?.headers)].filter((hint) => hint !== undefined),
        ...hintsFor(all, coverage, target, contract, probe.stopped?.reason, rateLimited, bounds.cutShort()),
      ].map(redact),
    });
    await notifyReporters(reporters, 'onRunEnd', result, context);
    return result;
  } finally {
    // After a failure, what is left to judge is judged and dropped, so no timer outlives the run.
    judging.flush();
    await client.close();
  }
}

// For library callers that pass reporters without a place to write: they run, and their output goes nowhere.
const NO_OUTPUT: ReporterContext = {
  reportDir: '',
  writeFile: async (name) => name,
  print: () => {},
  stepSummaryFile: undefined,
};

function checkTarget(target: string): string {
  let url: URL;
  try {
    url = new URL(target);
  } catch {
    throw new AppError('usage', `--target must be an http(s) base URL such as http://127.0.0.1:4010/v1 (got '${target}')`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new AppError('usage', `--target must be an http(s) base URL (got '${target}')`);
  }
  // undici sends no credentials from a URL, and the target is written into every report and curl line.
  if (url.username !== '' || url.password !== '') {
    throw new AppError(
      'usage',
      `--target must not hold credentials (user:password@): they would not be sent, and would be written into every report; give the host alone (${url.protocol}//${url.host}${url.pathname})`,
    );
  }
  // A base URL is what paths are appended to: after a query or a fragment they would land in it (…?api_key=k/pets).
  // The query is never echoed: it is where a key is most often put.
  if (url.search !== '' || url.hash !== '' || /[?#]/.test(target)) {
    throw new AppError(
      'usage',
      `--target must be a base URL without a query string or a fragment (?… or #…): paths are appended to it; give ${url.protocol}//${url.host}${url.pathname.replace(/\/+$/, '')}. A key the contract sends in the query (an apiKey scheme with in: query) goes through --token or PETSTORE_API_KEY, and the runner puts it in each request's query`,
    );
  }
  return target.replace(/\/+$/, '');
}

function hintsFor(
  scenarios: readonly ScenarioResult[],
  coverage: RunResult['coverage'],
  target: string,
  contract: Contract,
  stopped: string | undefined,
  rateLimited: RateLimited,
  cutShort: CutShort | undefined,
): string[] {
  if (stopped !== undefined) return [];
  const hints = [
    cutShortHint(cutShort),
    keyRefusedHint(scenarios),
    basePathHint(scenarios, target, contract.basePaths),
    unexercisedHint(coverage),
    rateLimitedHint(rateLimited),
  ];
  return hints.filter((hint): hint is string => hint !== undefined);
}

function longestFirst(cases: readonly Scenario[]): { scenario: Scenario; index: number }[] {
  const requests = (scenario: Scenario) => scenario.steps.reduce((n, step) => n + (step.repeat?.count ?? 1), 0);
  return cases.map((scenario, index) => ({ scenario, index, weight: requests(scenario) })).sort((a, b) => b.weight - a.weight);
}

function reasonToSkip(
  scenario: Scenario,
  options: ConformanceOptions,
  notServed: ReadonlyMap<string, string>,
): string | undefined {
  for (const step of scenario.steps) {
    const reason = notServed.get(step.operation.operationId);
    if (reason !== undefined) return reason;
  }
  return skipReason(scenario, options);
}

function skipped(scenario: Scenario, skipReason: string): ScenarioResult {
  return {
    id: scenario.id,
    source: scenario.source,
    kind: scenario.kind,
    file: scenario.file,
    line: scenario.line,
    name: scenario.name,
    description: scenario.description,
    tags: scenario.tags,
    outcome: 'skipped',
    skipReason,
    durationMs: 0,
    exchanges: [],
    findings: [],
    observations: [],
  };
}

function pickSettings(options: ConformanceOptions, seed: number, generate: readonly string[]): RunSettings {
  const { failOn, timeoutMs, maxResponseTimeMs, concurrency, rateLimit, readOnly, tags, skipTags, scenarios } = options;
  return {
    failOn,
    timeoutMs,
    maxResponseTimeMs,
    concurrency,
    rateLimit,
    readOnly,
    tags,
    skipTags,
    scenarios: [scenarios].flat(),
    shard: options.shard === undefined ? undefined : `${options.shard.index}/${options.shard.count}`,
    seed,
    generate,
    maxCases: options.maxCases,
    cases: options.cases ?? [],
    deadlineMs: options.deadlineMs,
  };
}

/** The verdict and totals of a run, from its cases (also of shards' merged reports). */
export function summarise(
  scenarios: readonly ScenarioResult[],
  run: Omit<RunResult, 'verdict' | 'totals' | 'scenarios' | 'causes'>,
): RunResult {
  const findings = scenarios.flatMap((s) => s.findings);
  const bySeverity = Object.fromEntries(SEVERITIES.map((s) => [s, 0])) as Record<Severity, number>;
  for (const finding of findings) bySeverity[finding.severity]++;
  const count = (outcome: ScenarioResult['outcome']) => scenarios.filter((s) => s.outcome === outcome).length;
  return {
    ...run,
    verdict: count('failed') > 0 || run.stopped !== undefined || run.cutShort !== undefined ? 'failed' : 'passed',
    // Cases the target cut short by going away are its deployment's trouble, said in the hint, not a contract cause;
    // so are the probe's findings that stopped a run: the stop's reason is its one cause.
    causes: run.stopped === undefined ? likelyCauses(scenarios.filter((s) => !run.targetGone?.cases.includes(s.id))) : [],
    totals: {
      scenarios: scenarios.length,
      passed: count('passed'),
      failed: count('failed'),
      skipped: count('skipped'),
      exchanges: scenarios.reduce((n, s) => n + s.exchanges.length, 0),
      findings: findings.length,
      blockingFindings: findings.filter((f) => f.blocking).length,
      observations: scenarios.reduce((n, s) => n + s.observations.length, 0),
      bySeverity,
    },
    scenarios,
  };
}
