import { DEV_API_KEY } from '../src/mock/mock-options.js';
import type { BenchSettings } from './bench-settings.js';
import { median } from './median.js';
import { type LatencyResult, probeLatency } from './probe-latency.js';
import { runLoad } from './run-load.js';
import type { Request } from './scenarios.js';
import { type SpawnedServer, spawnServer } from './spawn-server.js';
import { seededMockCommand } from './targets.js';

export interface ScaleRow {
  readonly pets: number;
  /** listPets?status=available&limit=100, one request at a time; medians over the rounds. */
  readonly list: LatencyResult;
  /** getPet of the last pet stored. */
  readonly get: LatencyResult;
  /** The same list at full load (settings.connections). */
  readonly listRequestsPerSecond: number;
  /** Resident memory of the mock process after seeding and the measurements. */
  readonly rssBytes: number | undefined;
  /** From spawning the process to its first answer, seeding included. */
  readonly readyMs: number;
}

const AUTH = { authorization: `Bearer ${DEV_API_KEY}` };

/** List and get latency, and memory, with each store size; the sizes take turns round after round. */
export async function measureStoreScale(settings: BenchSettings, progress: (line: string) => void): Promise<ScaleRow[]> {
  const servers: SpawnedServer[] = [];
  try {
    // Seeded side by side (on two cores), then measured one at a time.
    const spawned = await Promise.allSettled(settings.storeSizes.map((pets) => spawnServer(seededMockCommand(pets))));
    for (const result of spawned) if (result.status === 'fulfilled') servers.push(result.value);
    const failed = spawned.find((r) => r.status === 'rejected');
    if (failed) throw failed.reason;
    const samples = settings.storeSizes.map(() => ({
      list: [] as LatencyResult[],
      get: [] as LatencyResult[],
      rps: [] as number[],
    }));
    for (let round = 0; round < settings.rounds; round++) {
      for (let i = 0; i < servers.length; i++) {
        const index = (round + i) % servers.length;
        const pets = settings.storeSizes[index] as number;
        const { origin } = servers[index] as SpawnedServer;
        const sample = samples[index] as (typeof samples)[number];
        const list = get('/v1/pets?status=available&limit=100');
        sample.list.push(await probeLatency(origin, list, settings.probeRequests));
        sample.get.push(await probeLatency(origin, get(`/v1/pets/${pets}`), settings.probeRequests));
        const load = await runLoad(origin, list, {
          connections: settings.connections,
          durationSeconds: settings.scaleDurationSeconds,
        });
        sample.rps.push(load.requestsPerSecond);
        progress(`round ${round + 1}/${settings.rounds} ${pets} pets: list p50 ${Math.round(sample.list.at(-1)?.p50Us ?? 0)} µs`);
      }
    }
    return settings.storeSizes.map((pets, index) => {
      const sample = samples[index] as (typeof samples)[number];
      const server = servers[index] as SpawnedServer;
      return {
        pets,
        list: medianLatency(sample.list),
        get: medianLatency(sample.get),
        listRequestsPerSecond: median(sample.rps),
        rssBytes: server.rssBytes(),
        readyMs: server.startupMs,
      };
    });
  } finally {
    await Promise.all(servers.map((s) => s.stop()));
  }
}

function get(path: string): Request {
  return { method: 'GET', path, headers: AUTH, expectedStatus: 200 };
}

function medianLatency(results: readonly LatencyResult[]): LatencyResult {
  return { p50Us: median(results.map((r) => r.p50Us)), p99Us: median(results.map((r) => r.p99Us)) };
}
