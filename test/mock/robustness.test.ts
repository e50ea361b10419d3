import { connect } from 'node:net';
import { describe, expect, it } from 'vitest';
import { call } from '../support/http.js';
import { startMock } from '../support/start-mock.js';

// A small deterministic generator (mulberry32), so a failure replays exactly.
function random(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const PATHS = [
  '/pets',
  '/pets/1',
  '/pets/%',
  '/pets/%E0%A4%A',
  '/pets/1/2',
  '/pets?limit=%',
  '/pets?status[]=x',
  '/messages',
  '/',
  '/pets/-0',
  '/pets/0x10',
  '/pets/1e3',
];
const METHODS = ['GET', 'POST', 'PUT', 'DELETE', 'PATCH', 'OPTIONS', 'HEAD'];
const BODIES = [
  '',
  '{',
  'null',
  '0',
  '"x"',
  '{"name":null,"categoryId":null}',
  '{"name":"a","categoryId":1e400}',
  '{"name":"a","categoryId":-0}',
  '{"__proto__":{"x":1},"name":"a","categoryId":1}',
  '\u0000\u0001',
  '{"name":"\\ud800","categoryId":1}',
  '[1,2,3]',
];

describe('robustness', async () => {
  const mock = await startMock();

  it('answers 300 generated odd requests without a 5xx, and keeps serving', async () => {
    const next = random(20261122);
    const pick = <T>(items: readonly T[]) => items[Math.floor(next() * items.length)] as T;
    for (let i = 0; i < 300; i++) {
      const method = pick(METHODS);
      const body = method === 'GET' || method === 'HEAD' || method === 'OPTIONS' ? undefined : pick(BODIES);
      const reply = await call(mock.url, method, pick(PATHS), {
        body,
        headers:
          next() < 0.5
            ? { 'content-type': pick(['application/json', 'text/plain', 'application/json; charset=latin1', '']) }
            : {},
      });
      expect(reply.status, `${method} ${body}`).toBeLessThan(500);
    }
    expect((await call(mock.url, 'GET', '/pets/1')).status).toBe(200);
  });

  it('survives malformed HTTP on a raw socket', async () => {
    const { port } = new URL(mock.url);
    for (const raw of [
      'GARBAGE\r\n\r\n',
      'GET /v1/pets HTTP/1.1\r\nHost: x\r\nContent-Length: -1\r\n\r\n',
      'GET /v1/pets HTTP/9.9\r\n\r\n',
    ]) {
      await new Promise<void>((resolve) => {
        const socket = connect(Number(port), '127.0.0.1', () => socket.end(raw));
        socket.on('data', () => {});
        socket.on('close', () => resolve());
        socket.on('error', () => resolve());
      });
    }
    expect((await call(mock.url, 'GET', '/pets?limit=1')).status).toBe(200);
  });
});

describe('a log callback that throws', async () => {
  const mock = await startMock({
    log: () => {
      throw new Error('log sink is broken');
    },
  });

  it('does not stop the mock: each request is still answered', async () => {
    expect((await call(mock.url, 'GET', '/pets/1')).status).toBe(200);
    expect((await call(mock.url, 'GET', '/pets/1')).status).toBe(200);
  });
});

describe('deeply nested bodies', async () => {
  const mock = await startMock();
  const json = { 'content-type': 'application/json' };

  it.each([
    ['5000 unclosed [', '/pets', '['.repeat(5000)],
    ['5000 closed [', '/pets', `${'['.repeat(5000)}${']'.repeat(5000)}`],
    ['5000 nested objects', '/pets', `${'{"a":'.repeat(5000)}1${'}'.repeat(5000)}`],
    ['100000 closed [', '/pets', `${'['.repeat(100_000)}${']'.repeat(100_000)}`],
    ['5000 unclosed [', '/messages', '['.repeat(5000)],
    ['5000 closed [', '/messages', `${'['.repeat(5000)}${']'.repeat(5000)}`],
  ])('answers %s on %s with a 400 Error, never a 5xx', async (_, path, body) => {
    const reply = await call(mock.url, 'POST', path, { body, headers: json });
    expect(reply.status).toBe(400);
    // Past MAX_JSON_DEPTH the body is refused before any tree of it is built, whatever the engine's stack.
    expect(reply.json).toMatchObject({
      status: 400,
      code: 'invalid_json',
      message: expect.stringMatching(/^body: nested too deeply/),
    });
  });
});
