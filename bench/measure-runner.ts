import { join } from 'node:path';
import { Agent, request } from 'undici';
import { loadContract } from '../src/contract/load-contract.js';
import { packageRoot } from '../src/contract/package-root.js';
import { BUILT_IN_CHECKS } from '../src/conformance/checks/built-in-checks.js';
import type { CheckInput } from '../src/conformance/checks/check.js';
import { loadScenarios } from '../src/conformance/load-scenarios.js';
import { REDACTED_BEARER } from '../src/conformance/exchange.js';
import { runChecks } from '../src/conformance/run-checks.js';
import { runConformance } from '../src/conformance/run-conformance.js';
import { runPool } from '../src/conformance/run-pool.js';
import { DEV_API_KEY } from '../src/mock/mock-options.js';
import type { BenchSettings } from './bench-settings.js';
import { median } from './median.js';
import { spawnServer } from './spawn-server.js';
import { TARGETS } from './targets.js';

export interface RunnerRow {
  readonly requests: number;
  /** Warm-up runs of each side, then rounds, each the mean of runsPerRound runs of each side. */
  readonly schedule: { readonly warmUps: number; readonly rounds: number; readonly runsPerRound: number };
  /** The whole shipped suite through runConformance (scenario loading, the probe, checks; no reporters), ms. */
  readonly runnerMs: number;
  /** The same requests, in the same scenario groups and concurrency, sent with plain undici, ms. */
  readonly replayMs: number;
  readonly runnerRoundsMs: readonly number[];
  readonly replayRoundsMs: readonly number[];
  /**
   * Median over rounds of runner / replay − 1, each round's pair measured back to back: the machine's drift
   * moves both halves of a pair alike, so this is steadier than the ratio of the two medians.
   */
  readonly overhead: number;
  /** Of runnerMs: reading, parsing and checking the scenario files (a fixed cost, not a per-request one), ms. */
  readonly loadScenariosMs: number;
  /** All built-in checks on one recorded response, µs (mean over every recorded response, many times). */
  readonly checksUsPerResponse: number;
}

const CONCURRENCY = 4;
const QUICK = { warmUps: 2, rounds: 3, runsPerRound: 2 };
const FULL = { warmUps: 20, rounds: 15, runsPerRound: 8 };

/**
 * The runner against the mock (its own process), alternating with a plain undici replay of the requests it sent,
 * so that drift hits both. The first run records the requests; warm-up runs of both follow, not counted.
 */
export async function measureRunner(settings: BenchSettings, progress: (line: string) => void): Promise<RunnerRow> {
  const mock = await spawnServer(TARGETS.ours.command);
  const target = `${mock.origin}/v1`;
  try {
    const recorded = new Map<string, CheckInput[]>();
    const record = (input: CheckInput, scenario: { file: string; name: string }) => {
      const key = `${scenario.file} › ${scenario.name}`;
      recorded.set(key, [...(recorded.get(key) ?? []), input]);
    };
    await runSuite(target, record);
    const groups = [...recorded.values()];
    const inputs = groups.flat();
    const contract = await loadContract();
    const scenariosDir = join(packageRoot(), 'conformance');
    const loadRounds: number[] = [];
    const runnerRounds: number[] = [];
    const replayRounds: number[] = [];
    // One suite takes a few tens of milliseconds, about as long as a scheduling hiccup on this machine: a round is
    // the mean of several runs, each side taking turns run by run. Both sides are compiled by V8 as they run, so
    // the warm-up runs (not counted) let the JIT settle first.
    const { warmUps, rounds, runsPerRound } = settings.mode === 'quick' ? QUICK : FULL;
    // Each run starts from the fixtures, as a CI run against a fresh mock does: without the reset, pets created
    // by earlier runs fill every list page, and later rounds would measure bigger bodies than earlier ones.
    const reset = () => request(`${mock.origin}/__admin/reset`, { method: 'POST' }).then((answer) => answer.body.text());
    // One run of each side, the store reset before each; the times of the warm-up runs are dropped.
    const runBoth = async () => {
      const load = await timed(() => loadScenarios(scenariosDir, contract));
      await reset();
      const runner = await timed(() => runSuite(target));
      await reset();
      return { load, runner, plain: await timed(() => replay(groups)) };
    };
    for (let i = 0; i < warmUps; i++) await runBoth();
    for (let round = 0; round < rounds; round++) {
      const sum = { load: 0, runner: 0, plain: 0 };
      for (let run = 0; run < runsPerRound; run++) {
        const times = await runBoth();
        sum.load += times.load;
        sum.runner += times.runner;
        sum.plain += times.plain;
      }
      loadRounds.push(sum.load / runsPerRound);
      runnerRounds.push(sum.runner / runsPerRound);
      replayRounds.push(sum.plain / runsPerRound);
      progress(
        `round ${round + 1}/${rounds} (${runsPerRound} runs each) runner ${(sum.runner / runsPerRound).toFixed(1)} ms, replay ${(sum.plain / runsPerRound).toFixed(1)} ms`,
      );
    }
    return {
      requests: inputs.length,
      schedule: { warmUps, rounds, runsPerRound },
      runnerMs: median(runnerRounds),
      replayMs: median(replayRounds),
      runnerRoundsMs: runnerRounds,
      replayRoundsMs: replayRounds,
      overhead: median(runnerRounds.map((runner, i) => runner / (replayRounds[i] as number) - 1)),
      loadScenariosMs: median(loadRounds),
      checksUsPerResponse: checkCost(inputs, settings.mode === 'quick' ? 100 : 1000),
    };
  } finally {
    await mock.stop();
  }
}

function runSuite(target: string, onExchange?: (input: CheckInput, scenario: { file: string; name: string }) => void) {
  return runConformance({
    target,
    token: DEV_API_KEY,
    scenarios: join(packageRoot(), 'conformance'),
    failOn: 'medium',
    timeoutMs: 10_000,
    maxResponseTimeMs: 2_000,
    concurrency: CONCURRENCY,
    rateLimit: undefined,
    readOnly: false,
    tags: [],
    skipTags: [],
    version: 'bench',
    onExchange,
  }).then((result) => {
    if (result.verdict !== 'passed')
      throw new Error(`the conformance suite failed against the mock: ${result.totals.findings} findings`);
  });
}

// Scenarios in parallel up to the runner's concurrency, each one's requests in order, every body read.
async function replay(groups: readonly (readonly CheckInput[])[]): Promise<void> {
  const dispatcher = new Agent({ keepAliveTimeout: 10_000, connections: CONCURRENCY });
  try {
    await runPool(groups, CONCURRENCY, async (group) => {
      for (const { exchange } of group) {
        const { method, url, headers, body } = exchange.request;
        const sent = headers.authorization === REDACTED_BEARER ? { ...headers, authorization: `Bearer ${DEV_API_KEY}` } : headers;
        const answer = await request(url, { dispatcher, method: method as 'GET', headers: sent, body });
        await answer.body.text();
      }
    });
  } finally {
    await dispatcher.close();
  }
}

function checkCost(inputs: readonly CheckInput[], repeat: number): number {
  for (const input of inputs) runChecks(BUILT_IN_CHECKS, input);
  const started = performance.now();
  for (let i = 0; i < repeat; i++) for (const input of inputs) runChecks(BUILT_IN_CHECKS, input);
  return ((performance.now() - started) * 1000) / (repeat * inputs.length);
}

async function timed(work: () => Promise<unknown>): Promise<number> {
  const started = performance.now();
  await work();
  return performance.now() - started;
}
