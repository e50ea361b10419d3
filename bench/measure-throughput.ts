import { request } from 'undici';
import type { BenchSettings } from './bench-settings.js';
import { median } from './median.js';
import { resetMock } from './reset-mock.js';
import { probeLatency } from './probe-latency.js';
import { type LoadResult, runLoad } from './run-load.js';
import { type Request, requestFor, type Scenario } from './scenarios.js';
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
 * Every scenario against every target given, round after round. The order of the targets turns with each run, so
 * that drift on a noisy machine (heat, other load) hits all of them alike; each run has its own warm-up (none at 0 s). After a
 * run that wrote, the mock's store is put back to its fixtures, so that each run starts from the same records.
 * `basePaths`: where a target serves the scenarios' contract, where it is not the target's own (the library's mock).
 */
export async function measureThroughput(
  servers: Readonly<Partial<Record<TargetId, SpawnedServer>>>,
  scenarios: readonly Scenario[],
  settings: BenchSettings,
  progress: (line: string) => void,
  basePaths: Readonly<Partial<Record<TargetId, string>>> = {},
): Promise<ThroughputRow[]> {
  const order = TARGET_ORDER.filter((target) => servers[target] !== undefined);
  const results = new Map<string, LoadResult[]>();
  let turn = 0;
  for (let round = 0; round < settings.rounds; round++) {
    for (const scenario of scenarios) {
      for (let i = 0; i < order.length; i++) {
        const target = order[(turn + i) % order.length] as TargetId;
        const server = servers[target] as SpawnedServer;
        const serving = { basePath: basePaths[target] ?? TARGETS[target].basePath };
        if (scenario.before) await sendOnce(server.origin, requestFor(scenario.before, serving));
        const req = requestFor(scenario, serving);
        // A request first: a benchmark of 404s would be worthless.
        await probeLatency(server.origin, req, 1);
        if (settings.warmupSeconds > 0) {
          await runLoad(server.origin, req, { connections: settings.connections, durationSeconds: settings.warmupSeconds });
        }
        const result = await runLoad(server.origin, req, settings);
        if (target === 'ours' && (scenario.method !== 'GET' || scenario.before)) await resetMock(server.origin);
        const key = `${scenario.id}\0${target}`;
        results.set(key, [...(results.get(key) ?? []), result]);
        progress(
          `round ${round + 1}/${settings.rounds} ${scenario.id} ${TARGETS[target].title}: ${Math.round(result.requestsPerSecond)} req/s, p99 ${result.p99Ms} ms${result.non2xx > 0 ? `, ${result.non2xx} non-2xx` : ''}`,
        );
      }
      turn++;
    }
  }
  return scenarios.flatMap((scenario) =>
    order.map((target) => {
      const rounds = results.get(`${scenario.id}\0${target}`) ?? [];
      return { scenario: scenario.id, target, result: summarize(rounds), rounds };
    }),
  );
}

async function sendOnce(origin: string, req: Request): Promise<void> {
  const { statusCode, body } = await request(origin + req.path, { method: req.method, headers: req.headers, body: req.body });
  await body.dump();
  if (statusCode !== req.expectedStatus)
    throw new Error(`${req.method} ${req.path}: ${statusCode}, expected ${req.expectedStatus}`);
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
