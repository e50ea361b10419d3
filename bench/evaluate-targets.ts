import type { ThroughputRow } from './measure-throughput.js';
import type { RunnerRow } from './measure-runner.js';
import type { RunnerMemoryRow } from './measure-runner-memory.js';
import type { ScaleRow } from './measure-store-scale.js';
import type { StartupRow } from './measure-startup.js';
import type { TargetId } from './targets.js';

/** One target of the issue, checked against this run's figures; met is undefined when it was not measured. */
export interface TargetCheck {
  readonly target: string;
  readonly measured: string;
  readonly required: string;
  readonly met: boolean | undefined;
}

export interface Measurements {
  readonly throughput: readonly ThroughputRow[];
  /** The second resource's operations (bench/library-scenarios.ts), against the ceiling only. */
  readonly resourceThroughput: readonly ThroughputRow[];
  readonly scale: readonly ScaleRow[];
  readonly startup: readonly StartupRow[];
  readonly runner: RunnerRow;
  readonly runnerMemory: readonly RunnerMemoryRow[];
}

const MB = 1024 * 1024;

/** ours ÷ other, in requests per second, for one scenario. */
export function throughputRatio(rows: readonly ThroughputRow[], scenario: string, other: TargetId): number {
  const rps = (target: TargetId) => rows.find((r) => r.scenario === scenario && r.target === target)?.result.requestsPerSecond;
  return (rps('ours') ?? Number.NaN) / (rps(other) ?? Number.NaN);
}

export function evaluateTargets({
  throughput,
  resourceThroughput,
  scale,
  startup,
  runner,
  runnerMemory,
}: Measurements): TargetCheck[] {
  const checks = evaluateThroughputTargets(throughput, resourceThroughput);

  const smallest = scale.find((r) => r.pets === 1_000);
  const largest = scale.find((r) => r.pets === 1_000_000);
  if (smallest && largest) {
    const growth = largest.list.p50Us / smallest.list.p50Us;
    checks.push({
      target: 'listPets p50, 1 million pets / 1 thousand',
      measured: `${growth.toFixed(2)}×`,
      required: '≤ 1.5×',
      met: growth <= 1.5,
    });
    const rss = (largest.rssBytes ?? Number.NaN) / MB;
    checks.push({ target: 'RSS with 1 million pets', measured: `${Math.round(rss)} MB`, required: '≤ 400 MB', met: rss <= 400 });
  }
  const ourStartup = startup.find((r) => r.target === 'ours');
  if (ourStartup) {
    checks.push({
      target: 'start-up to first answer, ours',
      measured: `${Math.round(ourStartup.medianMs)} ms`,
      required: '≤ 1000 ms',
      met: ourStartup.medianMs <= 1000,
    });
  }
  checks.push(...evaluateRunnerTargets(runner));
  for (const row of runnerMemory) {
    checks.push({
      target: `conformance peak RSS, every list 10 MiB of ${row.shape}, -c ${row.concurrency}`,
      measured: `${Math.round(row.peakRssMb)} MB`,
      required: '< 300 MB',
      met: row.peakRssMb < 300,
    });
  }
  return checks;
}

/**
 * Issue 10: every operation at ≥ 0.6× the bare node:http ceiling and ≥ 5× Prism's CLI, in the same run. Issue 22:
 * a second resource's operations, on the mock's generic path, at ≥ 0.7× the ceiling.
 */
export function evaluateThroughputTargets(
  throughput: readonly ThroughputRow[],
  resourceThroughput: readonly ThroughputRow[],
): TargetCheck[] {
  const checks: TargetCheck[] = [];
  const ratio = (rows: readonly ThroughputRow[], scenario: string, other: TargetId, least: number, name: string) => {
    const value = throughputRatio(rows, scenario, other);
    checks.push({
      target: `${scenario}: ours / ${name}`,
      measured: `${value.toFixed(2)}×`,
      required: `≥ ${least}×`,
      met: value >= least,
    });
  };
  for (const scenario of new Set(throughput.map((r) => r.scenario))) {
    ratio(throughput, scenario, 'prism', 5, 'Prism');
    ratio(throughput, scenario, 'ceiling', 0.6, 'ceiling');
  }
  const ours = throughput.filter((r) => r.target === 'ours');
  const worstP99 = Math.max(...ours.map((r) => r.result.p99Ms));
  checks.push({ target: 'p99 of every operation, ours', measured: `${worstP99} ms`, required: '< 20 ms', met: worstP99 < 20 });
  for (const scenario of new Set(resourceThroughput.map((r) => r.scenario))) {
    ratio(resourceThroughput, scenario, 'ceiling', 0.7, 'ceiling');
  }
  return checks;
}

/**
 * The runner's cost per request was set at 25 µs over the replay on 2026-11-25 (commit 31fa182), when the replay took
 * 76.1 ms for 532 requests (143 µs each) and the bare node:http ceiling answered about 50,000 requests a second.
 * On slower days the same machine answers a third of that, and the tree of that day, run again on 2026-11-28
 * with this bench in turns with the newer tree, added 26.4 and 34.6 µs to replays of 287 and 277 µs: 9.2% and
 * 12.5%, against 12.9% on the day. Microseconds follow the machine; the share of the replay does not. So the target is the share 25 µs was of 143 µs, judged within one run as every other
 * target of the bench is (docs/performance.md).
 */
const RUNNER_TARGET_SET_ON = { overheadUs: 25, replayUs: 143 };
export const RUNNER_SHARE_TARGET = RUNNER_TARGET_SET_ON.overheadUs / RUNNER_TARGET_SET_ON.replayUs;

function replayUsPerRequest(runner: RunnerRow): number {
  return (runner.replayMs / runner.requests) * 1000;
}

/** The runner's targets: its cost per request over a plain replay, the default run's wall time, the checks' cost. */
export function evaluateRunnerTargets(runner: RunnerRow): TargetCheck[] {
  return [
    {
      target:
        "conformance: what the runner adds to each request over a plain undici replay, as a share of the replay's own time per request (median of paired rounds)",
      measured: `${(runner.overheadShare * 100).toFixed(1)}% (${runner.overheadUsPerRequest.toFixed(1)} µs over ${replayUsPerRequest(runner).toFixed(1)} µs)`,
      required: `≤ ${(RUNNER_SHARE_TARGET * 100).toFixed(1)}% (the 25 µs of ${RUNNER_TARGET_SET_ON.replayUs} µs it was set at)`,
      met: runner.overheadShare <= RUNNER_SHARE_TARGET,
    },
    {
      target: 'conformance --target <mock>, the default run as a new process, start to exit',
      measured: `${(runner.cliWallMs / 1000).toFixed(1)} s`,
      required: '< 10 s',
      met: runner.cliWallMs < 10_000,
    },
    {
      target: 'all checks on one response',
      measured: `${runner.checksUsPerResponse.toFixed(1)} µs`,
      required: '≤ 50 µs',
      met: runner.checksUsPerResponse <= 50,
    },
  ];
}
