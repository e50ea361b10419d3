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

  it('gives up at the deadline on an answer whose body never ends, and keeps serving other requests', async () => {
    const server = createServer((req, res) => {
      if (req.url === '/stall') res.writeHead(200, { 'content-type': 'application/json' }).write('[');
      else res.writeHead(200, { 'content-type': 'application/json' }).end('[]');
    });
    const base = await listen(server);
    const http = createHttpClient({ token: undefined, timeoutMs: 200, connections: 1, rateLimit: undefined });
    const stalled = await http.send({ method: 'GET', url: `${base}/stall`, headers: {}, body: undefined });
    const next = await http.send({ method: 'GET', url: `${base}/fine`, headers: {}, body: undefined });
    await http.close();
    expect(stalled.error).toEqual({ kind: 'timeout', message: 'no complete answer within 200 ms' });
    expect(stalled.elapsedMs).toBeLessThan(2_000);
    expect(next.response?.json).toEqual([]);
  });

  it('treats a connection cut in the middle of a body as a connection failure: a GET is retried, a POST is not', async () => {
    let cuts = 0;
    const server = createServer((req, res) => {
      req.resume();
      if (cuts++ === 0 || req.method === 'POST') {
        res.writeHead(200, { 'content-type': 'application/json', 'content-length': '100' }).write('[{"id":');
        setTimeout(() => res.destroy(), 20);
        return;
      }
      res.writeHead(200, { 'content-type': 'application/json' }).end('[]');
    });
    const base = await listen(server);
    const http = createHttpClient({ token: undefined, timeoutMs: 5_000, connections: 1, rateLimit: undefined });
    const get = await http.send({ method: 'GET', url: `${base}/pets`, headers: {}, body: undefined });
    const post = await http.send({ method: 'POST', url: `${base}/pets`, headers: {}, body: '{}' });
    await http.close();
    expect(get.response?.json).toEqual([]);
    expect(post.error?.kind).toBe('connection');
    expect(post.response).toBeUndefined();
    expect(cuts).toBe(3);
  });

  it('reads the final answer after 1xx ones, whole across chunks, with repeated headers joined and a BOM dropped', async () => {
    const server = createServer((_, res) => {
      res.writeProcessing();
      res.setHeader('x-seen', ['a', 'b']);
      res.writeHead(201, { 'content-type': 'application/json' });
      res.write(Buffer.from([0xef, 0xbb, 0xbf]));
      res.write('{"id": 9223372036854775807, "name": "h');
      // A multi-byte character split between two writes must come out whole.
      const e = Buffer.from('é');
      res.write(e.subarray(0, 1));
      setTimeout(() => res.end(Buffer.concat([e.subarray(1), Buffer.from('"}')])), 20);
    });
    const base = await listen(server);
    const http = createHttpClient({ token: undefined, timeoutMs: 5_000, connections: 1, rateLimit: undefined });
    const exchange = await http.send({ method: 'GET', url: `${base}/x`, headers: {}, body: undefined });
    await http.close();
    expect(exchange.response?.status).toBe(201);
    expect(exchange.response?.headers['x-seen']).toBe('a, b');
    expect(exchange.response?.text).toBe('{"id": 9223372036854775807, "name": "hé"}');
    expect(exchange.response?.json).toEqual({ id: 9223372036854775807n, name: 'hé' });
  });
});

async function listen(server: Server): Promise<string> {
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}
