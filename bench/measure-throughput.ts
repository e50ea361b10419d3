import type { BenchSettings } from './bench-settings.js';
import { median } from './median.js';
import { resetMock } from './reset-mock.js';
import { probeLatency } from './probe-latency.js';
import { type LoadResult, runLoad } from './run-load.js';
import { requestFor, SCENARIOS } from './scenarios.js';
import type { SpawnedServer } from './spawn-server.js';
import { TARGETS, type TargetId } from './targets.js';

export interface ThroughputRow {
  readonly scenario: string;
  readonly target: TargetId;
  /** Medians over the rounds; errors and non-2xx are totals. */
  readonly result: LoadResult;
  readonly rounds: readonly LoadResult[];
}

const TARGET_ORDER: readonly TargetId[] = ['ours', 'ceiling', 'prism'];

/**
 * Every scenario against every target, round after round. The order of the targets turns with each run, so
 * that drift on a noisy machine (heat, other load) hits all of them alike; each run has its own warm-up.
 */
export async function measureThroughput(
  servers: Readonly<Record<TargetId, SpawnedServer>>,
  settings: BenchSettings,
  progress: (line: string) => void,
): Promise<ThroughputRow[]> {
  const results = new Map<string, LoadResult[]>();
  let turn = 0;
  for (let round = 0; round < settings.rounds; round++) {
    for (const scenario of SCENARIOS) {
      for (let i = 0; i < TARGET_ORDER.length; i++) {
        const target = TARGET_ORDER[(turn + i) % TARGET_ORDER.length] as TargetId;
        const server = servers[target];
        const req = requestFor(scenario, TARGETS[target]);
        // A request first: a benchmark of 404s would be worthless.
        await probeLatency(server.origin, req, 1);
        await runLoad(server.origin, req, { connections: settings.connections, durationSeconds: settings.warmupSeconds });
        const result = await runLoad(server.origin, req, settings);
        if (target === 'ours' && scenario.method === 'POST') await resetMock(server.origin);
        const key = `${scenario.id}\0${target}`;
        results.set(key, [...(results.get(key) ?? []), result]);
        progress(
          `round ${round + 1}/${settings.rounds} ${scenario.id} ${TARGETS[target].title}: ${Math.round(result.requestsPerSecond)} req/s, p99 ${result.p99Ms} ms`,
        );
      }
      turn++;
    }
  }
  return SCENARIOS.flatMap((scenario) =>
    TARGET_ORDER.map((target) => {
      const rounds = results.get(`${scenario.id}\0${target}`) ?? [];
      return { scenario: scenario.id, target, result: summarize(rounds), rounds };
    }),
  );
}

function summarize(rounds: readonly LoadResult[]): LoadResult {
  return {
    requestsPerSecond: median(rounds.map((r) => r.requestsPerSecond)),
    p50Ms: median(rounds.map((r) => r.p50Ms)),
    p99Ms: median(rounds.map((r) => r.p99Ms)),
    errors: rounds.reduce((sum, r) => sum + r.errors, 0),
    non2xx: rounds.reduce((sum, r) => sum + r.non2xx, 0),
  };
}
