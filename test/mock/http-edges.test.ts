import { connect } from 'node:net';
import { Readable } from 'node:stream';
import { request } from 'undici';
import { describe, expect, it } from 'vitest';
import { call } from '../support/http.js';
import { sendRaw } from '../support/send-raw.js';
import { startMock } from '../support/start-mock.js';

describe('paths, methods, CORS, limits and admin', async () => {
  const mock = await startMock();
  const origin = new URL(mock.url).origin;

  it('answers an unknown path with a 404 Error', async () => {
    const reply = await call(mock.url, 'GET', '/owners');
    expect(reply.status).toBe(404);
    expect(reply.json).toEqual({ code: 'not_found', message: 'no operation of the contract has path /v1/owners', status: 404 });
  });

  it.each([
    ['/v1/pe%74s', 200],
    ['/v1/%70%65%74%73?limit=1', 200],
    ['/v1/pets/%31', 200],
    ['/%76%31/pets/1', 200],
    ['/%5F_admin/health', 200],
    ['/v1/pets%2F1', 404],
  ])('routes %s by its decoded unreserved characters (RFC 3986 §6.2.2.2): %i', async (path, status) => {
    const reply = await call(origin, 'GET', path);
    expect(reply.status).toBe(status);
  });

  it('points a path without the base path at /v1', async () => {
    const reply = await call(origin, 'GET', '/pets');
    expect(reply.status).toBe(404);
    expect((reply.json as { message: string }).message).toContain('served under /v1');
  });

  it('answers another method on a known path with 405 and an Allow that lists HEAD with GET', async () => {
    const reply = await call(mock.url, 'DELETE', '/pets/1');
    expect(reply.status).toBe(405);
    expect(reply.headers.allow).toBe('GET, HEAD, OPTIONS');
    expect(reply.json).toMatchObject({ code: 'method_not_allowed', status: 405 });
    expect((await call(mock.url, 'PUT', '/pets')).headers.allow).toBe('GET, HEAD, POST, OPTIONS');
    expect((await call(mock.url, 'GET', '/messages')).headers.allow).toBe('POST, OPTIONS');
  });

  it('answers OPTIONS * with 204 and the methods of the whole API (RFC 9110 §9.3.7)', async () => {
    const text = await sendRaw(
      Number(new URL(origin).port),
      'OPTIONS * HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n',
    );
    expect(text).toMatch(/^HTTP\/1\.1 204 /);
    expect(text).toMatch(/\r\nAllow: GET, HEAD, POST, OPTIONS\r\n/i);
  });

  it('answers a CORS preflight without auth, echoing the Origin and advertising only the methods the contract has', async () => {
    const reply = await call(mock.url, 'OPTIONS', '/pets', {
      auth: null,
      headers: {
        origin: 'http://localhost:5173',
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'authorization, content-type',
      },
    });
    expect(reply.status).toBe(204);
    // RFC 9110 §8.6: no Content-Length on a 204, preflight or plain OPTIONS.
    expect(reply.headers['content-length']).toBeUndefined();
    expect((await call(mock.url, 'OPTIONS', '/pets', { auth: null })).headers['content-length']).toBeUndefined();
    expect(reply.headers['access-control-allow-origin']).toBe('http://localhost:5173');
    expect(reply.headers['access-control-allow-methods']).toBe('GET, HEAD, POST, OPTIONS');
    expect(String(reply.headers['access-control-allow-headers']).toLowerCase()).toContain('authorization');
    expect(reply.headers['access-control-allow-private-network']).toBeUndefined();
  });

  it('grants no public page Private Network Access by default: its preflight gets no CORS headers', async () => {
    const refused = await call(mock.url, 'OPTIONS', '/pets', {
      auth: null,
      headers: {
        origin: 'https://preview.example.com',
        'access-control-request-method': 'GET',
        'access-control-request-private-network': 'true',
      },
    });
    expect(refused.status).toBe(204);
    expect(refused.headers['access-control-allow-private-network']).toBeUndefined();
    expect(refused.headers['access-control-allow-origin']).toBeUndefined();
  });

  it('adds CORS headers to ordinary answers, errors included, and exposes the deprecation headers', async () => {
    const ok = await call(mock.url, 'GET', '/pets/1', { headers: { origin: 'http://localhost:3000' } });
    expect(ok.headers['access-control-allow-origin']).toBe('http://localhost:3000');
    expect(ok.headers['access-control-expose-headers']).toContain('Sunset');
    const denied = await call(mock.url, 'GET', '/pets', { auth: null, headers: { origin: 'http://localhost:3000' } });
    expect(denied.status).toBe(401);
    expect(denied.headers['access-control-allow-origin']).toBe('http://localhost:3000');
  });

  it('answers an Accept that allows no JSON with 406 and an Error body, storing nothing (RFC 9110 §12.5.1)', async () => {
    const list = await call(mock.url, 'GET', '/pets', { headers: { accept: 'application/xml' } });
    expect(list.status).toBe(406);
    expect(list.headers['content-type']).toBe('application/json');
    expect(list.json).toMatchObject({ code: 'not_acceptable', status: 406 });
    expect((list.json as { message: string }).message).toContain('(application/json)');
    const before = mock.store.size;
    const create = await call(mock.url, 'POST', '/pets', {
      body: { name: 'Unwanted', categoryId: 1 },
      headers: { accept: 'application/json;q=0, */*' },
    });
    expect(create.status).toBe(406);
    expect(mock.store.size).toBe(before);
    for (const accept of ['application/json', 'text/html, */*;q=0.1', 'application/*']) {
      expect((await call(mock.url, 'GET', '/pets/1', { headers: { accept } })).status, accept).toBe(200);
    }
  });

  it('answers a body over 1 MiB with 413 and stores nothing', async () => {
    const before = mock.store.size;
    const name = 'x'.repeat(1024 * 1024 + 10);
    const reply = await call(mock.url, 'POST', '/pets', { body: { name, categoryId: 1 } });
    expect(reply.status).toBe(413);
    expect(reply.json).toMatchObject({ code: 'payload_too_large', status: 413 });
    expect(mock.store.size).toBe(before);
  });

  it('answers a chunked body over 1 MiB with 413', async () => {
    async function* chunks() {
      for (let i = 0; i < 20; i++) yield Buffer.alloc(100 * 1024, 'a');
    }
    const response = await request(`${mock.url}/pets`, {
      method: 'POST',
      headers: { authorization: 'Bearer petstore-dev-key', 'content-type': 'application/json' },
      body: Readable.from(chunks()),
    });
    // The mock reads the rest of the body and drops it before it answers and closes: no reset mid-upload.
    expect(response.statusCode).toBe(413);
    await response.body.text();
    expect((await call(mock.url, 'GET', '/pets?limit=1')).status).toBe(200);
  });

  it('answers 413 to a client that sends its whole body before reading, however slowly it comes', async () => {
    // Half of a 4 MB body, a pause, then the rest: a mock that answered and closed at once reset the connection
    // under the second half (fetch and undici saw EPIPE, never the 413).
    const port = Number(new URL(mock.url).port);
    const half = Buffer.alloc(2 * 1024 * 1024, 'a');
    const received = await new Promise<string>((resolve, reject) => {
      const socket = connect(port, '127.0.0.1', async () => {
        socket.write(
          `POST /v1/pets HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer petstore-dev-key\r\nContent-Type: application/json\r\nContent-Length: ${2 * half.length}\r\n\r\n`,
        );
        socket.write(half);
        await new Promise((resolve) => setTimeout(resolve, 200));
        socket.write(half);
      });
      let text = '';
      socket.on('data', (chunk) => {
        text += chunk;
      });
      socket.on('error', reject);
      socket.on('close', () => resolve(text));
    });
    expect(received).toMatch(/^HTTP\/1\.1 413 /);
    expect(received).toContain('"code":"payload_too_large"');
  });

  it('serves the quickstart POST /messages with 202 and a queued message', async () => {
    const reply = await call(mock.url, 'POST', '/messages', { body: { message: 'hello' } });
    expect(reply.status).toBe(202);
    const body = reply.json as Record<string, string>;
    expect(body).toMatchObject({ message: 'hello', status: 'queued' });
    expect(body.id).toMatch(/^msg_[0-9A-Z]{10}$/);
    expect(body.createdAt).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
  });

  it('answers health, dump and reset on the admin endpoints without auth', async () => {
    const created = await call(mock.url, 'POST', '/pets', { body: { name: 'Temporary', categoryId: 1 } });
    const id = (created.json as { id: number }).id;
    const health = await call(origin, 'GET', '/__admin/health', { auth: null });
    expect(health.json).toMatchObject({ status: 'ok', pets: mock.store.size });
    const dump = await call(origin, 'GET', '/__admin/pets', { auth: null });
    expect((dump.json as { id: number }[]).map((p) => p.id)).toContain(id);
    const reset = await call(origin, 'POST', '/__admin/reset', { auth: null });
    expect(reset.json).toEqual({ status: 'reset', pets: 24 });
    expect((await call(mock.url, 'GET', `/pets/${id}`)).status).toBe(404);
    expect((await call(origin, 'GET', '/__admin/nope', { auth: null })).status).toBe(404);
  });
});

describe('restricted CORS origins', async () => {
  const mock = await startMock({ corsOrigins: ['http://app.test'] });

  it('echoes only an allowed Origin', async () => {
    const allowed = await call(mock.url, 'GET', '/pets', { headers: { origin: 'http://app.test' } });
    expect(allowed.headers['access-control-allow-origin']).toBe('http://app.test');
    const other = await call(mock.url, 'GET', '/pets', { headers: { origin: 'http://evil.test' } });
    expect(other.headers['access-control-allow-origin']).toBeUndefined();
  });

  it('allows that origin, on a public address, to call the mock on loopback when its preflight asks (Private Network Access)', async () => {
    const preflight = (origin: string) =>
      call(mock.url, 'OPTIONS', '/pets', {
        auth: null,
        headers: { origin, 'access-control-request-method': 'GET', 'access-control-request-private-network': 'true' },
      });
    const allowed = await preflight('http://app.test');
    expect(allowed.status).toBe(204);
    expect(allowed.headers['access-control-allow-private-network']).toBe('true');
    expect(allowed.headers['access-control-allow-origin']).toBe('http://app.test');
    const other = await preflight('https://preview.example.com');
    expect(other.headers['access-control-allow-private-network']).toBeUndefined();
    expect(other.headers['access-control-allow-origin']).toBeUndefined();
  });
});

describe('slow clients', async () => {
  const mock = await startMock({ headersTimeoutMs: 300, requestTimeoutMs: 600 });

  it('closes a connection whose request never finishes, and keeps serving others', async () => {
    const { port } = new URL(mock.url);
    const socket = connect(Number(port), '127.0.0.1');
    socket.write(
      'POST /v1/pets HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer petstore-dev-key\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{"name":',
    );
    const answer = await new Promise<string>((resolve) => {
      let text = '';
      socket.on('data', (chunk) => {
        text += chunk.toString();
      });
      socket.on('close', () => resolve(text));
    });
    expect(answer).toMatch(/^HTTP\/1\.1 408/);
    expect((await call(mock.url, 'GET', '/pets?limit=1')).status).toBe(200);
  });
});
