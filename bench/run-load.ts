import autocannon from 'autocannon';
import type { Request } from './scenarios.js';

export interface LoadSettings {
  readonly connections: number;
  readonly durationSeconds: number;
}

/** One load run's figures. Latencies are autocannon's, in whole milliseconds. */
export interface LoadResult {
  readonly requestsPerSecond: number;
  readonly p50Ms: number;
  readonly p99Ms: number;
  readonly errors: number;
  readonly non2xx: number;
}

/**
 * Drives one URL with autocannon (in this process: the servers run in their own) for a fixed time. A request with
 * a path of its own each time is built anew for each (autocannon's setupRequest), at a cost to this process.
 */
export async function runLoad(origin: string, request: Request, settings: LoadSettings): Promise<LoadResult> {
  const { nextPath } = request;
  const result = await autocannon({
    url: origin + request.path,
    method: request.method,
    headers: request.headers,
    body: request.body,
    connections: settings.connections,
    duration: settings.durationSeconds,
    timeout: 10,
    ...(nextPath ? { requests: [{ setupRequest: (sent) => ({ ...sent, path: nextPath() }) }] } : {}),
  });
  return {
    requestsPerSecond: result.requests.total / result.duration,
    p50Ms: result.latency.p50,
    p99Ms: result.latency.p99,
    errors: result.errors + result.timeouts,
    non2xx: result.non2xx,
  };
}
