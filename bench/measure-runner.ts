import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Agent, request } from 'undici';
import type { Scenario, Step } from '../src/conformance/cases/scenario.js';
import { REDACTED_BEARER } from '../src/conformance/http/exchange.js';
import { packageRoot } from '../src/contract/package-root.js';
import { BUILT_IN_CHECKS } from '../src/conformance/judge/checks/built-in-checks.js';
import { createRunMemory, type RunMemory } from '../src/conformance/judge/checks/check.js';
import type { ObservedInput } from '../src/conformance/judge/create-judge.js';
import type { ContractView } from '../src/contract/resources/infer-resources.js';
import { loadContract } from '../src/contract/load-contract.js';
import { runChecks } from '../src/conformance/judge/run-checks.js';
import { runConformance } from '../src/conformance/run-conformance.js';
import { runPool } from '../src/conformance/run-pool.js';
import { createGate } from '../src/conformance/http/create-gate.js';
import { DEV_API_KEY } from '../src/mock/mock-options.js';
import type { BenchSettings } from './bench-settings.js';
import { measureRunnerEngine } from './measure-runner-engine.js';
import { median } from './median.js';
import { resetMock } from './reset-mock.js';
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
  /**
   * Of runnerMs: what a run does before its first request and after its last (reading the scenario files,
   * generating and selecting the cases, opening and closing connections, the summary), a fixed cost per run, not a
   * per-request one, ms. It is the run's whole time less the time from the probe's start to the coverage table
   * (RunResult.durationMs).
   */
  readonly fixedMs: number;
  /** Median over rounds of (runner − fixed cost − replay) / requests: what the runner adds to each request, µs. */
  readonly overheadUsPerRequest: number;
  /**
   * Median over rounds of (runner − fixed cost − replay) / replay: what the runner adds to each request as a share
   * of what the replay itself takes for one. Both halves of a round ran on the same machine a moment apart, so the
   * share holds from one machine's speed to another's where the microseconds do not (RUNNER_SHARE_TARGET).
   */
  readonly overheadShare: number;
  /** The default run as CI starts it: `conformance --target <mock>` as a new process, to its exit, ms (median). */
  readonly cliWallMs: number;
  /** All built-in checks on one recorded response, µs (mean over every recorded response, many times). */
  readonly checksUsPerResponse: number;
  /** The runner's own work per request with no network and the mock idle (measure-runner-engine.ts), µs. */
  readonly engineUsPerRequest: number;
  /**
   * CPU time a run takes, ms, median over the counted runs: this process's (all its threads) and the mock's, for
   * a runner run and for a replay. Where the client's CPU comes near its wall time, the client is what the run
   * waits on, and whatever the runner adds to it is added to the run. The mock's figures are undefined off Linux.
   */
  readonly cpu: Readonly<Record<'runner' | 'replay', { readonly client: number; readonly mock: number | undefined }>>;
}

const CONCURRENCY = 4;
// One seed for every run of the bench, so each run sends the same cases.
const SEED = 20261123;
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
    const recorded = new Map<string, Group>();
    const record = (input: ObservedInput, scenario: Scenario, step: Step) => {
      const group = recorded.get(scenario.id) ?? { dedicated: scenario.connection === 'dedicated', inputs: [], steps: [] };
      group.inputs.push(input);
      group.steps.push(step);
      recorded.set(scenario.id, group);
    };
    await runSuite(target, record);
    const groups = [...recorded.values()];
    const inputs = groups.flatMap((g) => g.inputs);
    const loadRounds: number[] = [];
    const runnerRounds: number[] = [];
    const replayRounds: number[] = [];
    // One suite takes a few tens of milliseconds, about as long as a scheduling hiccup on this machine: a round is
    // the mean of several runs, each side taking turns run by run. Both sides are compiled by V8 as they run, so
    // the warm-up runs (not counted) let the JIT settle first.
    const { warmUps, rounds, runsPerRound } = settings.mode === 'quick' ? QUICK : FULL;
    // Each run starts from the fixtures, as a CI run against a fresh mock does: without the reset, pets created
    // by earlier runs fill every list page, and later rounds would measure bigger bodies than earlier ones.
    const reset = () => resetMock(mock.origin);
    const cpu = {
      runner: { client: [] as number[], mock: [] as number[] },
      replay: { client: [] as number[], mock: [] as number[] },
    };
    // What one side's run cost this process and the mock in CPU time, kept for the counted runs.
    const costed = async <T>(side: keyof typeof cpu, counted: boolean, work: () => Promise<T>): Promise<T> => {
      const client = process.cpuUsage();
      const mockBefore = mock.cpuMs();
      const result = await work();
      const used = process.cpuUsage(client);
      const mockAfter = mock.cpuMs();
      if (counted) {
        cpu[side].client.push((used.user + used.system) / 1000);
        if (mockBefore !== undefined && mockAfter !== undefined) cpu[side].mock.push(mockAfter - mockBefore);
      }
      return result;
    };
    // One run of each side, the store reset before each; the times of the warm-up runs are dropped.
    const runBoth = async (counted: boolean) => {
      await reset();
      let sending = 0;
      const runner = await costed('runner', counted, () =>
        timed(async () => {
          sending = (await runSuite(target)).durationMs;
        }),
      );
      await reset();
      return { load: runner - sending, runner, plain: await costed('replay', counted, () => timed(() => replay(groups))) };
    };
    for (let i = 0; i < warmUps; i++) await runBoth(false);
    for (let round = 0; round < rounds; round++) {
      const sum = { load: 0, runner: 0, plain: 0 };
      for (let run = 0; run < runsPerRound; run++) {
        const times = await runBoth(true);
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
    const cliRuns: number[] = [];
    for (let i = 0; i < (settings.mode === 'quick' ? 1 : 3); i++) {
      await reset();
      cliRuns.push(await timed(() => runCliProcess(target)));
    }
    return {
      requests: inputs.length,
      overheadUsPerRequest: median(
        runnerRounds.map(
          (runner, i) => ((runner - (loadRounds[i] as number) - (replayRounds[i] as number)) / inputs.length) * 1000,
        ),
      ),
      overheadShare: median(
        runnerRounds.map(
          (runner, i) => (runner - (loadRounds[i] as number) - (replayRounds[i] as number)) / (replayRounds[i] as number),
        ),
      ),
      cliWallMs: median(cliRuns),
      schedule: { warmUps, rounds, runsPerRound },
      runnerMs: median(runnerRounds),
      replayMs: median(replayRounds),
      runnerRoundsMs: runnerRounds,
      replayRoundsMs: replayRounds,
      overhead: median(runnerRounds.map((runner, i) => runner / (replayRounds[i] as number) - 1)),
      fixedMs: median(loadRounds),
      checksUsPerResponse: checkCost(inputs, await loadContract(), settings.mode === 'quick' ? 100 : 1000),
      engineUsPerRequest: await measureRunnerEngine(mock.origin, SEED, settings.mode === 'quick' ? 5 : 40),
      cpu: {
        runner: { client: median(cpu.runner.client), mock: cpu.runner.mock.length > 0 ? median(cpu.runner.mock) : undefined },
        replay: { client: median(cpu.replay.client), mock: cpu.replay.mock.length > 0 ? median(cpu.replay.mock) : undefined },
      },
    };
  } finally {
    await mock.stop();
  }
}

function runSuite(target: string, onExchange?: (input: ObservedInput, scenario: Scenario, step: Step) => void) {
  return runConformance({
    seed: SEED,
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
    return result;
  });
}

interface Group {
  /** The case had a connection of its own (auth on a kept-alive connection): the replay opens one too. */
  readonly dedicated: boolean;
  readonly inputs: ObservedInput[];
  /** Each input's step: the repetitions of a parallel step are replayed as many at a time as the runner sent them. */
  readonly steps: Step[];
}

// Cases in parallel up to the runner's concurrency, each one's steps in order (a parallel step's repetitions as many
// at a time as the runner sends them), at most that many requests in flight in all, as the runner has, every body
// read. The run's key is recorded as Bearer ***, and a header made
// from it to be refused (Bearer <key minus its last character>) as a description: the replay sends the key, and a
// refused stand-in of the same length, so the target does the same work.
async function replay(groups: readonly Group[]): Promise<void> {
  const pooled = new Agent({ keepAliveTimeout: 10_000, connections: CONCURRENCY });
  const onTheWire = createGate(CONCURRENCY);
  try {
    await runPool(groups, CONCURRENCY, async (group) => {
      const dispatcher = group.dedicated ? new Agent({ keepAliveTimeout: 10_000, connections: 1 }) : pooled;
      const send = async (i: number) => {
        const { method, url, headers, body } = (group.inputs[i] as ObservedInput).exchange.request;
        const sent =
          headers.authorization === REDACTED_BEARER
            ? { ...headers, authorization: `Bearer ${DEV_API_KEY}` }
            : headers.authorization?.includes('<key')
              ? { ...headers, authorization: `Bearer ${DEV_API_KEY.slice(0, -1)}` }
              : headers;
        const leave = await onTheWire();
        try {
          const answer = await request(url, { dispatcher, method: method as 'GET', headers: sent, body });
          await answer.body.text();
        } finally {
          leave();
        }
      };
      for (let i = 0; i < group.inputs.length; ) {
        const step = group.steps[i] as Step;
        let end = i + 1;
        while (group.steps[end] === step) end++;
        const batch = Array.from({ length: end - i }, (_, k) => i + k);
        if (step.parallel === undefined) for (const k of batch) await send(k);
        else await runPool(batch, step.parallel, send);
        i = end;
      }
      if (dispatcher !== pooled) await dispatcher.close();
    });
  } finally {
    await pooled.close();
  }
}

// The CLI as CI runs it, all reporters writing to a throwaway folder.
async function runCliProcess(target: string): Promise<void> {
  const reportDir = await mkdtemp(join(tmpdir(), 'bench-reports-'));
  const child = spawn(
    process.execPath,
    [join(packageRoot(), 'dist/src/cli/conformance.js'), '--target', target, '--report-dir', reportDir],
    {
      env: { ...process.env, PETSTORE_API_KEY: DEV_API_KEY, GITHUB_STEP_SUMMARY: '' },
      stdio: 'ignore',
    },
  );
  const [code] = (await once(child, 'exit')) as [number | null];
  if (code !== 0) throw new Error(`conformance --target ${target} exited ${code}`);
}

// Each pass over the responses with a run memory of its own, as a run has: ids assigned in one pass are not
// assigned twice in the next.
function checkCost(inputs: readonly ObservedInput[], contract: ContractView, repeat: number): number {
  const memories = Array.from({ length: repeat + 1 }, () => createRunMemory(contract));
  for (const input of inputs) runChecks(BUILT_IN_CHECKS, { ...input, run: memories[repeat] as RunMemory });
  const started = performance.now();
  for (let i = 0; i < repeat; i++) {
    const run = memories[i] as RunMemory;
    for (const input of inputs) runChecks(BUILT_IN_CHECKS, { ...input, run });
  }
  return ((performance.now() - started) * 1000) / (repeat * inputs.length);
}

async function timed(work: () => Promise<unknown>): Promise<number> {
  const started = performance.now();
  await work();
  return performance.now() - started;
}
