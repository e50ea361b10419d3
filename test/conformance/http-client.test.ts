import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { createHttpClient } from '../../src/conformance/create-http-client.js';

const servers: Server[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => new Promise((resolve) => s.close(resolve))));
});

/** A server on 127.0.0.1:0 that drops the first `drops` requests' connections and answers the rest with []. */
async function serve(drops: number): Promise<{ url: string; arrivals: number[] }> {
  const arrivals: number[] = [];
  const server = createServer((req, res) => {
    arrivals.push(performance.now());
    if (arrivals.length <= drops) {
      req.socket.destroy();
      return;
    }
    res.writeHead(200, { 'content-type': 'application/json' }).end('[]');
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1/pets`, arrivals };
}

const client = (rateLimit?: number) => createHttpClient({ token: 'k', timeoutMs: 5_000, connections: 4, rateLimit });

describe('createHttpClient', () => {
  it('retries a GET whose connection failed, and answers from the retry', async () => {
    const { url, arrivals } = await serve(1);
    const http = client();
    const exchange = await http.send({ method: 'GET', url, headers: {}, body: undefined });
    await http.close();
    expect(exchange.error).toBeUndefined();
    expect(exchange.response?.status).toBe(200);
    expect(arrivals).toHaveLength(2);
  });

  it('never retries a POST: a lost answer may still have created something', async () => {
    const { url, arrivals } = await serve(1);
    const http = client();
    const exchange = await http.send({ method: 'POST', url, headers: { 'content-type': 'application/json' }, body: '{}' });
    await http.close();
    expect(exchange.error?.kind).toBe('connection');
    expect(arrivals).toHaveLength(1);
  });

  it('refuses a request HTTP cannot carry, without sending or retrying it', async () => {
    const { url, arrivals } = await serve(0);
    const http = client();
    const sending = http.send({ method: 'GET', url, headers: { 'x-a': 'a\nb' }, body: undefined });
    await expect(sending).rejects.toMatchObject({ code: 'request_invalid' });
    await http.close();
    expect(arrivals).toHaveLength(0);
  });

  it('spaces requests sent at once by --rate-limit', async () => {
    const { url, arrivals } = await serve(0);
    const http = client(20);
    const sentAt = performance.now();
    await Promise.all(Array.from({ length: 6 }, () => http.send({ method: 'GET', url, headers: {}, body: undefined })));
    await http.close();
    expect(arrivals).toHaveLength(6);
    // 20 per second: the sixth may not start before five gaps of 50 ms have passed. Measured from the moment they
    // were sent, not from the first arrival, which a new connection's set-up delays by a varying amount.
    expect((arrivals.at(-1) as number) - sentAt).toBeGreaterThanOrEqual(5 * 50 - 2);
  });
});
