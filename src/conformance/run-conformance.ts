import { randomBytes, randomInt } from 'node:crypto';
import { relative } from 'node:path';
import { AppError } from '../contract/app-error.js';
import { loadContract } from '../contract/load-contract.js';
import { BUILT_IN_CHECKS } from './checks/built-in-checks.js';
import type { Check, CheckInput } from './checks/check.js';
import { createHttpClient, type HttpClient, type HttpClientOptions } from './create-http-client.js';
import { loadScenarios } from './load-scenarios.js';
import { operationCoverage } from './operation-coverage.js';
import type { Reporter, ReporterContext } from './reporters/reporter.js';
import type { RunResult, RunSettings, ScenarioResult } from './run-result.js';
import { runPool } from './run-pool.js';
import { runScenario } from './run-scenario.js';
import { suggestName } from './suggest-name.js';
import type { Scenario } from './scenario.js';
import { SEVERITIES, type Severity } from './severity.js';

export interface ConformanceOptions extends Omit<RunSettings, 'seed' | 'generate' | 'maxCases' | 'cases'> {
  /** Default: a random seed, recorded in the result. */
  readonly seed?: number;
  /** Kinds of generated case; default all, [] for none. */
  readonly generate?: readonly string[];
  readonly maxCases?: number | undefined;
  readonly cases?: readonly string[];
  /** Stop sending new cases once this many have failed (--max-failures); the rest are reported as skipped. */
  readonly maxFailures?: number;
  /** Passed to the HTTP client: headers on every request, TLS, the answer size cap. */
  readonly http?: Pick<HttpClientOptions, 'headers' | 'insecure' | 'ca' | 'maxResponseBytes'>;
  /** The base URL, including /v1. */
  readonly target: string;
  readonly token: string | undefined;
  /** Default openapi.yaml at the project root. */
  readonly contract?: string;
  readonly checks?: readonly Check[];
  readonly reporters?: readonly Reporter[];
  readonly reporterContext?: ReporterContext;
  readonly version: string;
  /** Sees every exchange with what its checks saw, and its scenario (the benchmark replays and re-checks them). */
  readonly onExchange?: (checked: CheckInput, scenario: Scenario) => void;
}

/**
 * Loads the contract and the scenarios (any problem: AppError 'contract_invalid' / 'scenario_invalid', before
 * anything is sent), checks that the target answers at all ('target_unreachable'), runs the scenarios with
 * bounded concurrency, steps in order within each, and hands the result to the reporters.
 */
export async function runConformance(options: ConformanceOptions): Promise<RunResult> {
  const target = checkTarget(options.target);
  const contract = await loadContract(options.contract);
  const scenarios = await loadScenarios(options.scenarios, contract);
  checkTags(scenarios, options);
  const client = createHttpClient({
    token: options.token,
    timeoutMs: options.timeoutMs,
    connections: options.concurrency,
    rateLimit: options.rateLimit,
    ...options.http,
  });
  try {
    const startedAt = new Date();
    const started = performance.now();
    const reporters = options.reporters ?? [];
    const context = options.reporterContext ?? NO_OUTPUT;
    const files = new Set(scenarios.map((s) => s.file)).size;
    const runId = randomBytes(4).toString('hex');
    const seed = options.seed ?? randomInt(0, 2 ** 32 - 1);
    // The probe tells a target that does not answer at all (exit 3) from a broken one. It takes the first of the
    // --concurrency slots, so it adds no round trip of its own; nothing is reported until it has answered.
    let unreachable: unknown;
    const probed = probe(client, target).catch((error: unknown) => {
      unreachable = error;
    });
    const announced = probed.then(async () => {
      if (unreachable !== undefined) return;
      for (const reporter of reporters) await reporter.onRunStart?.({ target, scenarios: scenarios.length, files }, context);
    });
    const items: (typeof PROBE | Scenario)[] = [PROBE, ...scenarios];
    const outcomes = await runPool(items, options.concurrency, async (item) => {
      if (item === PROBE) return void (await probed);
      const skipReason = unreachable === undefined ? reasonToSkip(item, options) : 'the target did not answer';
      const result = skipReason
        ? skipped(item, skipReason)
        : await runScenario(item, {
            client,
            target,
            token: options.token,
            checks: options.checks ?? BUILT_IN_CHECKS,
            settings: { timeoutMs: options.timeoutMs, maxResponseTimeMs: options.maxResponseTimeMs },
            failOn: options.failOn,
            runId,
            onExchange: options.onExchange,
          });
      await announced;
      if (unreachable === undefined) for (const reporter of reporters) await reporter.onScenarioEnd?.(result, context);
      return result;
    });
    if (unreachable !== undefined) throw unreachable;
    const results = outcomes.slice(1) as ScenarioResult[];
    const result = summarise(results, {
      tool: { name: 'conformance', version: options.version },
      target,
      contract: {
        file: relative(process.cwd(), contract.file) || contract.file,
        title: contract.title,
        version: contract.version,
      },
      startedAt: startedAt.toISOString(),
      durationMs: performance.now() - started,
      settings: pickSettings(options, seed, []),
      coverage: operationCoverage(contract.operations, results),
      stopped: undefined,
      hints: [],
    });
    for (const reporter of reporters) await reporter.onRunEnd?.(result, context);
    return result;
  } finally {
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
  return target.replace(/\/+$/, '');
}

// Any HTTP answer, whatever its status, proves the target is there; without one, every step would fail alike.
async function probe(client: HttpClient, target: string): Promise<void> {
  const exchange = await client.send({ method: 'GET', url: target, headers: { accept: 'application/json' }, body: undefined });
  if (exchange.error) throw new AppError('target_unreachable', `Target ${target} did not answer: ${exchange.error.message}`);
}

// A typo in --tags would run nothing and pass; one in --skip-tags would run what was meant to be skipped
// (--skip-tags mutatin against production). Both are usage errors, as is a selection that leaves nothing to run.
function checkTags(scenarios: readonly Scenario[], options: ConformanceOptions): void {
  const known = new Set(scenarios.flatMap((s) => s.tags));
  for (const [flag, tags] of [
    ['--tags', options.tags],
    ['--skip-tags', options.skipTags],
  ] as const) {
    const unknown = tags.find((tag) => !known.has(tag));
    if (unknown === undefined) continue;
    const hint = suggestName(unknown, known);
    throw new AppError(
      'usage',
      `${flag} ${unknown}: no scenario has this tag${hint ? ` (did you mean ${hint}?)` : ''}; the suite's tags: ${[...known].sort().join(', ')}`,
    );
  }
  if (scenarios.every((scenario) => reasonToSkip(scenario, options) !== undefined)) {
    throw new AppError('usage', 'nothing to run: the chosen --tags, --skip-tags and --read-only skip every scenario');
  }
}

const PROBE: unique symbol = Symbol('probe');

function reasonToSkip(scenario: Scenario, options: ConformanceOptions): string | undefined {
  if (options.readOnly && scenario.tags.includes('mutating')) return '--read-only: the scenario changes the target';
  if (options.tags.length > 0 && !scenario.tags.some((t) => options.tags.includes(t))) {
    return `--tags ${options.tags.join(',')}: not tagged`;
  }
  const skippedTag = scenario.tags.find((t) => options.skipTags.includes(t));
  return skippedTag ? `--skip-tags: tagged ${skippedTag}` : undefined;
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
  const { maxCases } = options;
  return {
    failOn,
    timeoutMs,
    maxResponseTimeMs,
    concurrency,
    rateLimit,
    readOnly,
    tags,
    skipTags,
    scenarios,
    seed,
    generate,
    maxCases,
    cases: options.cases ?? [],
  };
}

function summarise(scenarios: readonly ScenarioResult[], run: Omit<RunResult, 'verdict' | 'totals' | 'scenarios'>): RunResult {
  const findings = scenarios.flatMap((s) => s.findings);
  const bySeverity = Object.fromEntries(SEVERITIES.map((s) => [s, 0])) as Record<Severity, number>;
  for (const finding of findings) bySeverity[finding.severity]++;
  const count = (outcome: ScenarioResult['outcome']) => scenarios.filter((s) => s.outcome === outcome).length;
  return {
    ...run,
    verdict: count('failed') > 0 ? 'failed' : 'passed',
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
