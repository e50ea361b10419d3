import { Client } from 'undici';
import { median } from './median.js';
import type { Request } from './scenarios.js';

export interface LatencyResult {
  readonly p50Us: number;
  readonly p99Us: number;
}

/**
 * Latency of one request at a time over one kept-alive connection, in microseconds: autocannon's whole
 * milliseconds cannot tell 1 thousand stored pets from 1 million. The first `count` requests warm both sides up
 * and are not counted. Fails on any answer but the expected status.
 */
export async function probeLatency(origin: string, request: Request, count: number): Promise<LatencyResult> {
  const client = new Client(origin, { pipelining: 1 });
  const times: number[] = [];
  try {
    for (let i = -count; i < count; i++) {
      const started = performance.now();
      const { statusCode, body } = await client.request({
        path: request.nextPath?.() ?? request.path,
        method: request.method,
        headers: request.headers,
        body: request.body,
      });
      await body.dump();
      if (i >= 0) times.push((performance.now() - started) * 1000);
      if (statusCode !== request.expectedStatus) {
        throw new Error(`${request.method} ${request.path}: ${statusCode}, expected ${request.expectedStatus}`);
      }
    }
  } finally {
    await client.close();
  }
  times.sort((a, b) => a - b);
  return { p50Us: median(times), p99Us: times[Math.min(times.length - 1, Math.floor(times.length * 0.99))] as number };
}
