import { createServer, request as httpRequest, type Server } from 'node:http';
import { createServer as createTlsServer } from 'node:https';
import { type AddressInfo, createServer as createNetServer, type Socket } from 'node:net';
import { brotliCompressSync, deflateRawSync, deflateSync, gzipSync } from 'node:zlib';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createHttpClient } from '../../src/conformance/http/create-http-client.js';
import { runPool } from '../../src/conformance/run-pool.js';
import { redactExchange } from '../../src/conformance/http/redact-exchange.js';
import { connectProxy } from '../support/connect-proxy.js';
import { selfSigned } from '../support/test-certificates.js';

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

  it('sends a POST once more when the target closes a kept-alive connection as it goes out (a fresh one, never)', async () => {
    // Each connection answers its first request and is closed, unanswered, on its second: what a server that
    // closes idle connections without a Keep-Alive hint does to a request that races the close.
    let arrivals = 0;
    const server = createServer((req, res) => {
      arrivals++;
      const socket = req.socket as Socket & { served?: number };
      socket.served = (socket.served ?? 0) + 1;
      if (socket.served > 1) {
        socket.destroy();
        return;
      }
      res.writeHead(201, { 'content-type': 'application/json' }).end('{"id":1}');
    });
    servers.push(server);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1/pets`;
    const http = createHttpClient({ token: 'k', timeoutMs: 5_000, connections: 1, rateLimit: undefined });
    const post = () => http.send({ method: 'POST', url, headers: { 'content-type': 'application/json' }, body: '{}' });
    expect((await post()).response?.status).toBe(201);
    const second = await post();
    await http.close();
    expect(second.error).toBeUndefined();
    expect(second.response?.status).toBe(201);
    expect(arrivals).toBe(3);
  });

  it('sends each POST once more, on a new connection, to a target that closes every connection after its answer', async () => {
    // No Connection: close and no Keep-Alive hint: the next request on a pooled connection races the close, and
    // so would a retry on another pooled one (an outside audit's server, failed as "other side closed").
    let processed = 0;
    const server = createServer((req, res) => {
      req.resume();
      req.on('end', () => {
        processed++;
        res.on('finish', () => req.socket.destroy());
        res.writeHead(201, { 'content-type': 'application/json' }).end('{"id":1}');
      });
    });
    server.keepAliveTimeout = 0;
    servers.push(server);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1/pets`;
    const http = createHttpClient({ token: 'k', timeoutMs: 5_000, connections: 4, rateLimit: undefined });
    const post = () => http.send({ method: 'POST', url, headers: { 'content-type': 'application/json' }, body: '{}' });
    // Eight at a time over four connections, as a burst of creates goes: a retry meets connections still closing.
    const sent = await runPool(Array.from({ length: 60 }), 8, post);
    await http.close();
    expect(sent.map((exchange) => exchange.error?.message)).toEqual(Array(60).fill(undefined));
    expect(sent.every((exchange) => exchange.response?.status === 201)).toBe(true);
    expect(processed).toBe(60);
  });

  it("ends a case's own connection when the case closes it, and the pool goes on serving", async () => {
    const ended: Promise<void>[] = [];
    const server = createServer((_req, res) => res.writeHead(200, { 'content-type': 'application/json' }).end('[]'));
    server.on('connection', (socket: Socket) => ended.push(new Promise((resolve) => socket.on('close', () => resolve()))));
    // Kept open for longer than the test may take: only the client can end it in time.
    server.keepAliveTimeout = 60_000;
    servers.push(server);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1/pets`;
    const http = client();
    const own = http.dedicated();
    for (let i = 0; i < 3; i++)
      expect((await own.send({ method: 'GET', url, headers: {}, body: undefined })).response?.status).toBe(200);
    expect(ended).toHaveLength(1);
    await own.close();
    await ended[0];
    const after = await http.send({ method: 'GET', url, headers: {}, body: undefined });
    await http.close();
    expect(after.response?.status).toBe(200);
    expect(ended).toHaveLength(2);
  });
  it('sends a request again, POST too, after a 429 once the wait it asks for is over, and not past 10 s', async () => {
    let arrivals = 0;
    const server = createServer((req, res) => {
      arrivals++;
      if (req.url === '/forever') res.writeHead(429, { 'retry-after': '3600' }).end();
      else if (arrivals <= 2)
        res.writeHead(429, { 'retry-after': arrivals === 1 ? '0' : new Date(Date.now() - 1000).toUTCString() }).end();
      else res.writeHead(201, { 'content-type': 'application/json' }).end('{"id":1}');
    });
    servers.push(server);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const waits: number[] = [];
    const http = createHttpClient({
      token: 'k',
      timeoutMs: 5_000,
      connections: 1,
      rateLimit: undefined,
      onRateLimited: (ms) => waits.push(ms),
    });
    const created = await http.send({
      method: 'POST',
      url: `${origin}/v1/pets`,
      headers: { 'content-type': 'application/json' },
      body: '{}',
    });
    expect(created.response?.status).toBe(201);
    expect(arrivals).toBe(3);
    expect(waits).toEqual([0, 0]);
    const refused = await http.send({ method: 'GET', url: `${origin}/forever`, headers: {}, body: undefined });
    await http.close();
    expect(refused.response?.status).toBe(429);
    expect(arrivals).toBe(4);
    expect(waits).toHaveLength(2);
  });

  it("does not wait for a 429 whose Retry-After ends past the run's deadline, and says the deadline stopped it", async () => {
    let arrivals = 0;
    const server = createServer((_, res) => {
      arrivals++;
      res.writeHead(429, { 'retry-after': '5' }).end();
    });
    servers.push(server);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1/pets`;
    const waits: number[] = [];
    const http = createHttpClient({
      token: 'k',
      timeoutMs: 5_000,
      connections: 1,
      rateLimit: undefined,
      onRateLimited: (ms) => waits.push(ms),
      deadline: { at: performance.now() + 2_000, name: '2s' },
    });
    const sending = http.send({ method: 'GET', url, headers: {}, body: undefined });
    await expect(sending).rejects.toMatchObject({
      code: 'deadline_reached',
      message: expect.stringMatching(/^--deadline 2s reached: a 429/),
    });
    await http.close();
    expect(arrivals).toBe(1);
    expect(waits).toEqual([]);
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

  it('does not count the wait for a --rate-limit slot as the target answering slowly', async () => {
    const { url } = await serve(0);
    const http = client(20);
    const exchanges = await Promise.all(
      Array.from({ length: 6 }, () => http.send({ method: 'GET', url, headers: {}, body: undefined })),
    );
    await http.close();
    // The sixth waited five gaps of 50 ms for its slot; the target answers at once.
    expect(Math.max(...exchanges.map((e) => e.elapsedMs))).toBeLessThan(150);
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
    expect(exchange.response?.invalidUtf8).toBe(false);
  });

  it('says when a body is not UTF-8, and reads it with U+FFFD in place of the bad bytes', async () => {
    const server = createServer((_, res) => {
      res.writeHead(401, { 'content-type': 'application/json' });
      res.end(Buffer.concat([Buffer.from('{"code":"x","message":"cl'), Buffer.from([0xe9]), Buffer.from('","status":401}')]));
    });
    const base = await listen(server);
    const http = createHttpClient({ token: undefined, timeoutMs: 5_000, connections: 1, rateLimit: undefined });
    const exchange = await http.send({ method: 'GET', url: `${base}/x`, headers: {}, body: undefined });
    await http.close();
    expect(exchange.response?.invalidUtf8).toBe(true);
    expect(exchange.response?.json).toEqual({ code: 'x', message: 'cl\ufffd', status: 401 });
  });
});

async function listen(server: Server): Promise<string> {
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

const get = (http: ReturnType<typeof createHttpClient>, url: string) =>
  http.send({ method: 'GET', url, headers: {}, body: undefined });
const plain = (extra: Partial<Parameters<typeof createHttpClient>[0]> = {}) =>
  createHttpClient({ token: undefined, timeoutMs: 5_000, connections: 1, rateLimit: undefined, ...extra });

describe('createHttpClient against odd targets', () => {
  it('stops reading an answer larger than --max-response-bytes and drops the connection', async () => {
    let written = 0;
    let closed: Promise<void> = Promise.resolve();
    const server = createServer((_, res) => {
      closed = new Promise((resolve) => res.on('close', () => resolve()));
      res.writeHead(200, { 'content-type': 'application/json' });
      const chunk = Buffer.alloc(64 * 1024, 0x20);
      // An endless body: only a dropped connection stops it.
      const pump = () => {
        while (!res.destroyed && res.write(chunk)) written += chunk.length;
      };
      res.on('drain', pump);
      pump();
    });
    const http = plain({ maxResponseBytes: 1024 * 1024 });
    const exchange = await get(http, `${await listen(server)}/big`);
    await closed;
    await http.close();
    expect(exchange.error?.kind).toBe('too-large');
    expect(exchange.error?.message).toMatch(/more than --max-response-bytes \(1048576 bytes\)/);
    expect(exchange.response).toBeUndefined();
    expect(written).toBeLessThan(64 * 1024 * 1024);
  });

  it.each([
    ['gzip', gzipSync],
    ['deflate', deflateSync],
    ['deflate', deflateRawSync],
    ['br', brotliCompressSync],
    ['gzip, br', (b: Buffer) => brotliCompressSync(gzipSync(b))],
  ])('decodes a body sent with Content-Encoding %s', async (coding, encode) => {
    const server = createServer((_, res) => {
      res
        .writeHead(200, { 'content-type': 'application/json', 'content-encoding': coding })
        .end(encode(Buffer.from('[{"id":1}]')));
    });
    const http = plain();
    const exchange = await get(http, `${await listen(server)}/pets`);
    await http.close();
    expect(exchange.response?.json).toEqual([{ id: 1 }]);
  });

  it('reads an empty body as empty, whatever its Content-Encoding (a HEAD answer, a 204)', async () => {
    const server = createServer((_, res) => res.writeHead(204, { 'content-encoding': 'gzip' }).end());
    const http = plain();
    const exchange = await get(http, `${await listen(server)}/pets`);
    await http.close();
    expect(exchange.error).toBeUndefined();
    expect(exchange.response?.status).toBe(204);
    expect(exchange.response?.text).toBe('');
  });

  it('reports a zstd body, a corrupt gzip body and a gzip bomb as answers it cannot use, not as crashes', async () => {
    const bomb = gzipSync(Buffer.alloc(8 * 1024 * 1024, 0x20));
    const server = createServer((req, res) => {
      if (req.url === '/zstd') res.writeHead(200, { 'content-encoding': 'zstd' }).end(Buffer.from([0x28, 0xb5, 0x2f, 0xfd, 0]));
      else if (req.url === '/corrupt') res.writeHead(200, { 'content-encoding': 'gzip' }).end('not gzip at all');
      else if (req.url === '/deflate')
        res.writeHead(200, { 'content-encoding': 'deflate' }).end(deflateSync(Buffer.alloc(8 * 1024 * 1024, 0x20)));
      else res.writeHead(200, { 'content-encoding': 'gzip' }).end(bomb);
    });
    const base = await listen(server);
    const http = plain({ maxResponseBytes: 1024 * 1024 });
    const [zstd, corrupt, bombed] = [
      await get(http, `${base}/zstd`),
      await get(http, `${base}/corrupt`),
      await get(http, `${base}/bomb`),
    ];
    await http.close();
    expect(bomb.length).toBeLessThan(1024 * 1024);
    // The status line arrived: the target answered, though there is nothing to judge.
    expect(zstd.error).toEqual({
      kind: 'undecodable',
      status: 200,
      message: expect.stringMatching(/Content-Encoding zstd, which the runner cannot decode/),
    });
    expect(corrupt.error?.kind).toBe('undecodable');
    expect(bombed.error).toEqual({
      kind: 'too-large',
      status: 200,
      message: expect.stringMatching(/^decoded, the body is more than/),
    });
    // A deflate (zlib) bomb too: not retried as raw deflate and called undecodable.
    const small = plain({ maxResponseBytes: 1024 * 1024 });
    const deflated = await get(small, `${base}/deflate`);
    await small.close();
    expect(deflated.error).toEqual({
      kind: 'too-large',
      status: 200,
      message: expect.stringMatching(/^decoded, the body is more than/),
    });
  });

  it('skips an unsolicited 100 Continue and reads the answer after it (RFC 9110 §15.2)', async () => {
    const server = createServer((_, res) => {
      res.writeContinue();
      res.writeHead(200, { 'content-type': 'application/json' }).end('[]');
    });
    const http = plain();
    const exchange = await get(http, `${await listen(server)}/pets`);
    await http.close();
    expect(exchange.error).toBeUndefined();
    expect(exchange.response?.status).toBe(200);
  });

  it('skips a 100 Continue that arrives in pieces, then the answer, twice on one connection', async () => {
    const pieces = ['HTTP/1.1 10', '0 Cont', 'inue\r\n', '\r\nHTTP/1.1 200 OK\r\ncontent-length: 2\r\n\r\n[]'];
    const raw = createNetServer((socket) => {
      socket.on('data', async (request) => {
        if (!request.toString('latin1').startsWith('GET ')) return;
        for (const piece of pieces) {
          socket.write(piece);
          await new Promise((resolve) => setTimeout(resolve, 15));
        }
      });
    });
    const base = await listen(raw as unknown as Server);
    const http = plain();
    const first = await get(http, `${base}/pets`);
    const second = await get(http, `${base}/pets`);
    await http.close();
    expect([first.response?.status, second.response?.status]).toEqual([200, 200]);
    expect(second.response?.json).toEqual([]);
  });

  it('drops the connection on a 100 Continue whose header block never ends, as undici does for a final head', async () => {
    let written = 0;
    const raw = createNetServer((socket) => {
      socket.on('error', () => {});
      socket.once('data', () => {
        socket.write('HTTP/1.1 100 Continue\r\nX-Long: ');
        const chunk = Buffer.alloc(64 * 1024, 'a');
        const pump = () => {
          while (!socket.destroyed && socket.write(chunk)) written += chunk.length;
        };
        socket.on('drain', pump);
        pump();
      });
    });
    const http = plain({ timeoutMs: 10_000 });
    const exchange = await get(http, `${await listen(raw as unknown as Server)}/pets`);
    await http.close();
    expect(exchange.error?.kind).toBe('connection');
    expect(exchange.error?.message).toMatch(/100 Continue's header block went past \d+ bytes without ending/);
    // Three connections (a GET is retried twice), each dropped once the kernel's buffers and one head are full.
    expect(written).toBeLessThan(32 * 1024 * 1024);
  });

  it('does not follow a redirect: a 307 is the answer, and its Location is never requested', async () => {
    const paths: string[] = [];
    const server = createServer((req, res) => {
      paths.push(req.url ?? '');
      if (req.url === '/pets') res.writeHead(307, { location: '/elsewhere' }).end();
      else res.writeHead(200).end('[]');
    });
    const http = plain();
    const exchange = await get(http, `${await listen(server)}/pets`);
    await http.close();
    expect(exchange.response?.status).toBe(307);
    expect(paths).toEqual(['/pets']);
  });

  it('counts an answer that is read after the deadline as a timeout, even before the timer has run', async () => {
    const realNow = performance.now.bind(performance);
    let skew = 0;
    const clock = vi.spyOn(performance, 'now').mockImplementation(() => realNow() + skew);
    try {
      const server = createServer((_, res) => {
        // As if the process had been busy for a minute between sending and reading: the 10 s timer has not run.
        skew = 60_000;
        res.writeHead(200, { 'content-type': 'application/json' }).end('[]');
      });
      const http = plain({ timeoutMs: 10_000 });
      const exchange = await get(http, `${await listen(server)}/pets`);
      await http.close();
      expect(exchange.error).toEqual({ kind: 'timeout', message: 'no complete answer within 10000 ms' });
    } finally {
      clock.mockRestore();
    }
  });

  it('records the key as Bearer ***, and its redactor takes it out of everything the target echoes', async () => {
    const key = 'pk_live_0123456789abcdef';
    const server = createServer((_, res) => {
      res.setHeader(`x-echo-${key}`, Buffer.from(`Bearer ${key}`).toString('base64'));
      res.writeHead(200, { 'content-type': 'application/json' }).end(`{"k":"${key.replace(/_/g, '\\u005f')}"}`);
    });
    const http = createHttpClient({ token: key, timeoutMs: 5_000, connections: 1, rateLimit: undefined });
    const exchange = await http.send({
      method: 'GET',
      url: `${await listen(server)}/pets`,
      headers: { authorization: `Bearer ${key}` },
      body: undefined,
    });
    await http.close();
    expect(exchange.request.headers.authorization).toBe('Bearer ***');
    const shown = redactExchange(exchange, http.redact);
    expect(shown.response?.headers['x-echo-***']).toBe('***');
    expect(shown.response?.json).toEqual({ k: '***' });
    expect(JSON.stringify(shown)).not.toMatch(/0123456789/);
  });
});

describe('createHttpClient with -H headers', () => {
  it('sends them unless the request sets the same header, and records credentials among them as ***', async () => {
    const seen: Record<string, string | string[] | undefined>[] = [];
    const server = createServer((req, res) => {
      seen.push(req.headers);
      res.writeHead(200, { 'content-type': 'application/json' }).end(`{"echo":"${req.headers['x-api-key']}"}`);
    });
    const base = await listen(server);
    const headers = { 'X-Api-Key': 'tenant-secret-0123456789', 'X-Team': 'blue', Cookie: 'sid=1' };
    const http = plain({ headers });
    const exchange = await http.send({ method: 'GET', url: `${base}/pets`, headers: { 'x-team': 'red' }, body: undefined });
    await http.close();
    expect(seen[0]).toMatchObject({ 'x-api-key': 'tenant-secret-0123456789', 'x-team': 'red', cookie: 'sid=1' });
    expect(exchange.request.headers).toMatchObject({ 'x-api-key': '***', 'x-team': 'red', cookie: 'sid=***' });
    expect(redactExchange(exchange, http.redact).response?.json).toEqual({ echo: '***' });
  });

  it("puts -H cookies beside the request's own, except one of the same name", async () => {
    const seen: (string | undefined)[] = [];
    const server = createServer((req, res) => {
      seen.push(req.headers.cookie);
      res.writeHead(204).end();
    });
    const base = await listen(server);
    const http = plain({ headers: { Cookie: 'sid=1; notes_key=real' } });
    // A cookie parameter the operation needs, and a case that sends the key in a cookie altered.
    for (const cookie of ['region=eu', 'notes_key=altered; region=eu']) {
      await http.send({ method: 'GET', url: `${base}/x`, headers: { cookie }, body: undefined });
    }
    await http.close();
    expect(seen).toEqual(['sid=1; notes_key=real; region=eu', 'sid=1; notes_key=altered; region=eu']);
  });
});

describe('createHttpClient through a proxy', () => {
  const saved = { ...process.env };
  afterEach(() => {
    for (const name of ['HTTP_PROXY', 'http_proxy', 'NO_PROXY', 'no_proxy']) {
      if (saved[name] === undefined) delete process.env[name];
      else process.env[name] = saved[name];
    }
  });

  /** A forwarding proxy on loopback that records the absolute-form targets it was asked for. */
  async function startProxy(): Promise<{ url: string; seen: string[] }> {
    const seen: string[] = [];
    const proxy = createServer((req, res) => {
      seen.push(req.url ?? '');
      const onward = httpRequest(req.url ?? '', { method: req.method, headers: req.headers }, (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      });
      req.pipe(onward);
    });
    return { url: await listen(proxy), seen };
  }

  it('sends through HTTP_PROXY, and straight to hosts NO_PROXY names', async () => {
    const target = await listen(createServer((_, res) => res.writeHead(200, { 'content-type': 'application/json' }).end('[]')));
    const proxy = await startProxy();
    process.env.HTTP_PROXY = proxy.url;
    const viaProxy = plain();
    const proxied = await get(viaProxy, `${target}/pets`);
    await viaProxy.close();
    process.env.NO_PROXY = '127.0.0.1';
    const direct = plain();
    const straight = await get(direct, `${target}/pets`);
    await direct.close();
    expect(proxied.response?.json).toEqual([]);
    expect(straight.response?.json).toEqual([]);
    expect(proxy.seen).toEqual([`${target}/pets`]);
  });

  it('sends a raw request through HTTP_PROXY as any other, saying what follows its header block is unread', async () => {
    const target = await listen(createServer((_, res) => res.writeHead(204).end()));
    const proxy = await startProxy();
    process.env.HTTP_PROXY = proxy.url;
    const head = { method: 'HEAD', url: `${target}/pets`, headers: {}, body: undefined, raw: true };
    const viaProxy = plain();
    const proxied = await viaProxy.send(head);
    await viaProxy.close();
    process.env.NO_PROXY = '127.0.0.1';
    const direct = plain();
    const straight = await direct.send(head);
    await direct.close();
    expect(proxy.seen).toEqual([`${target}/pets`]);
    expect(proxied.afterHead).toEqual({ unread: 'the run reaches the target through a proxy' });
    expect(straight.afterHead).toEqual({ strayBytes: 0, strayStart: '' });
    expect([proxied.response?.status, straight.response?.status]).toEqual([204, 204]);
  });
});

async function tlsTarget(identity: { key: Buffer; cert: string }): Promise<string> {
  const server = createTlsServer(identity, (_, res) => res.writeHead(200).end('[]'));
  return `${(await listen(server as unknown as Server)).replace('http:', 'https:')}/pets`;
}

describe('createHttpClient over TLS', () => {
  it('refuses a certificate it cannot verify, unless --insecure, or --ca names its issuer', async () => {
    const identity = await selfSigned();
    const url = await tlsTarget(identity);
    const outcomes = [];
    for (const settings of [{}, { insecure: true }, { ca: identity.cert }]) {
      const http = plain(settings);
      outcomes.push(await get(http, url));
      await http.close();
    }
    expect(outcomes.map((e) => e.response?.status ?? e.error?.kind)).toEqual(['connection', 200, 200]);
    expect(outcomes[0]?.error?.message).toMatch(/SELF_SIGNED|self.signed/i);
  });

  it('reaches an https target through HTTPS_PROXY (CONNECT), verifying the target with --ca', async () => {
    const identity = await selfSigned();
    const url = await tlsTarget(identity);
    const tunnels: string[] = [];
    const proxy = connectProxy(tunnels);
    const proxyUrl = await listen(proxy);
    const saved = process.env.HTTPS_PROXY;
    process.env.HTTPS_PROXY = proxyUrl;
    try {
      const http = plain({ ca: identity.cert });
      const exchange = await get(http, url);
      await http.close();
      expect(exchange.response?.status).toBe(200);
      expect(tunnels).toEqual([new URL(url).host]);
    } finally {
      if (saved === undefined) delete process.env.HTTPS_PROXY;
      else process.env.HTTPS_PROXY = saved;
    }
  });

  it('keeps trusting NODE_EXTRA_CA_CERTS when --ca is given too', async () => {
    const [extra, other] = await Promise.all([selfSigned(), selfSigned()]);
    const url = await tlsTarget(extra);
    const saved = process.env.NODE_EXTRA_CA_CERTS;
    process.env.NODE_EXTRA_CA_CERTS = extra.certFile;
    try {
      const http = plain({ ca: other.cert });
      const exchange = await get(http, url);
      await http.close();
      expect(exchange.response?.status).toBe(200);
    } finally {
      if (saved === undefined) delete process.env.NODE_EXTRA_CA_CERTS;
      else process.env.NODE_EXTRA_CA_CERTS = saved;
    }
  });
});
