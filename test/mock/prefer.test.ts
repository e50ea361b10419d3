import { connect } from 'node:net';
import { request } from 'undici';
import { describe, expect, it } from 'vitest';
import { call } from '../support/http.js';
import { startMock } from '../support/start-mock.js';

const ASKED = (status: number) => `Prefer: code=${status} asked for this answer; nothing was looked up or changed`;

describe('Prefer: code=NNN', async () => {
  const mock = await startMock();

  it('answers a documented error status with a real Error body, leaving the store alone', async () => {
    const before = mock.store.size;
    const reply = await call(mock.url, 'POST', '/pets', { body: { name: 'a', categoryId: 1 }, headers: { prefer: 'code=400' } });
    expect(reply.status).toBe(400);
    expect(reply.json).toEqual({ code: 'validation_failed', message: ASKED(400), status: 400 });
    expect(reply.headers['preference-applied']).toBe('code=400');
    expect(mock.store.size).toBe(before);
  });

  it('gives getPet’s 404 in the contract example’s code, never its placeholder message, with the deprecation headers', async () => {
    const reply = await call(mock.url, 'GET', '/pets/1', { headers: { prefer: 'code=404', accept: 'text/html' } });
    expect(reply.status).toBe(404);
    expect(reply.json).toEqual({ code: 'pet_not_found', message: ASKED(404), status: 404 });
    expect(reply.text).not.toContain('42');
    expect(reply.headers.sunset).toBe('Thu, 05 Dec 2030 00:00:00 GMT');
  });

  it('answers a success of an operation with state for real: the stored pet, a pet really created', async () => {
    const fetched = await call(mock.url, 'GET', '/pets/1', { headers: { prefer: 'code=200' } });
    expect(fetched.status).toBe(200);
    expect(fetched.json).toEqual((await call(mock.url, 'GET', '/pets/1')).json);
    const before = mock.store.size;
    const created = await call(mock.url, 'POST', '/pets', {
      body: { name: 'Forced', categoryId: 3 },
      headers: { prefer: 'code=201' },
    });
    expect(created.status).toBe(201);
    expect(mock.store.size).toBe(before + 1);
    const id = (created.json as { id: number }).id;
    expect((await call(mock.url, 'GET', `/pets/${id}`)).json).toMatchObject({ id, name: 'Forced' });
  });

  it('never makes an invalid request or a missing pet succeed', async () => {
    const invalid = await call(mock.url, 'POST', '/pets', {
      body: { name: 'x', categoryId: '1' },
      headers: { prefer: 'code=201' },
    });
    expect(invalid.status).toBe(400);
    expect(invalid.json).toMatchObject({ code: 'validation_failed', message: 'body.categoryId: must be integer' });
    const missing = await call(mock.url, 'GET', '/pets/99999999', { headers: { prefer: 'code=200' } });
    expect(missing.status).toBe(404);
    expect(missing.json).toMatchObject({ code: 'pet_not_found' });
  });

  it('still requires the key', async () => {
    const reply = await call(mock.url, 'GET', '/pets', { auth: null, headers: { prefer: 'code=200' } });
    expect(reply.status).toBe(401);
    expect(reply.json).toMatchObject({ code: 'missing_authorization' });
  });

  it('answers 400 for a success the operation does not document, listing the documented statuses', async () => {
    const reply = await call(mock.url, 'GET', '/pets', { headers: { prefer: 'code=204' } });
    expect(reply.status).toBe(400);
    expect(reply.json).toMatchObject({
      code: 'invalid_parameter',
      message:
        'header.prefer: code=204 is not a documented status of listPets (documented: 200, 401); any 4xx or 5xx may be asked for',
    });
  });

  it.each([
    [503, 'prefer_code'],
    [429, 'prefer_code'],
    [500, 'internal_error'],
    [418, 'prefer_code'],
  ])('answers any error status asked for, documented or not: %i as %s', async (status, code) => {
    const reply = await call(mock.url, 'GET', '/pets', { headers: { prefer: `code=${status}` } });
    expect(reply.status).toBe(status);
    expect(reply.json).toEqual({ code, message: ASKED(status), status });
    expect(reply.headers['preference-applied']).toBe(`code=${status}`);
  });
});

describe('Prefer: delay and fault', async () => {
  const lines: string[] = [];
  const mock = await startMock({ log: (line) => lines.push(line) });

  it('delays the answer by delay=<ms> and says so in Preference-Applied', async () => {
    const started = performance.now();
    const reply = await call(mock.url, 'GET', '/pets?limit=1', { headers: { prefer: 'delay=300' } });
    expect(performance.now() - started).toBeGreaterThanOrEqual(290);
    expect(reply.status).toBe(200);
    expect(reply.headers['preference-applied']).toBe('delay=300');
  });

  it('combines code and delay', async () => {
    const reply = await call(mock.url, 'GET', '/pets/1', { headers: { prefer: 'code=503, delay=50' } });
    expect(reply.status).toBe(503);
    expect(reply.headers['preference-applied']).toBe('delay=50, code=503');
  });

  it.each(['reset', 'empty'])('drops the connection without an answer for fault=%s', async (fault) => {
    const before = mock.store.size;
    const sent = call(mock.url, 'POST', '/pets', {
      body: { name: 'never', categoryId: 1 },
      headers: { prefer: `fault=${fault}` },
    });
    await expect(sent).rejects.toThrow();
    expect(mock.store.size).toBe(before);
  });

  it.each(['reset', 'empty'])('answers a request pipelined before a fault=%s first, then drops the connection', async (fault) => {
    const port = Number(new URL(mock.url).port);
    const head = (prefer: string) =>
      `GET /v1/pets/1 HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer petstore-dev-key\r\nPrefer: ${prefer}\r\n\r\n`;
    // Everything read before the connection ends, whether it ends with a FIN or a reset.
    const received = await new Promise<string>((resolve) => {
      const socket = connect(port, '127.0.0.1', () => socket.write(head('delay=200') + head(`fault=${fault}`)));
      let text = '';
      socket.on('data', (chunk) => {
        text += chunk;
      });
      socket.on('error', () => {});
      socket.on('close', () => resolve(text));
    });
    expect(received).toMatch(/^HTTP\/1\.1 200 OK\r\n/);
    expect(received).toContain('"id":1');
    expect(received.match(/HTTP\/1\.1 /g)).toHaveLength(1);
  });

  it('records an answer that waited for a client that had gone with no status', async () => {
    const asked = request(`${mock.url}/pets?limit=3`, {
      headers: { authorization: 'Bearer petstore-dev-key', prefer: 'delay=400' },
      signal: AbortSignal.timeout(100),
    });
    await expect(asked).rejects.toThrow();
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(lines.filter((line) => line.startsWith('GET /v1/pets?limit=3 ')).at(-1)).toMatch(
      /^GET \/v1\/pets\?limit=3 - delay=400 [\d.]+ms$/,
    );
  });

  it('answers fault=malformed with the success status, a JSON type and a body that is not JSON', async () => {
    const reply = await call(mock.url, 'POST', '/pets', {
      body: { name: 'x', categoryId: 1 },
      headers: { prefer: 'fault=malformed' },
    });
    expect(reply.status).toBe(201);
    expect(reply.headers['content-type']).toBe('application/json');
    expect(() => JSON.parse(reply.text)).toThrow();
    expect(reply.headers['preference-applied']).toBe('fault=malformed');
  });

  it('never answers fault=hang: the client gives up', async () => {
    const { request } = await import('undici');
    const asked = request(`${mock.url}/pets`, {
      headers: { authorization: 'Bearer petstore-dev-key', prefer: 'fault=hang' },
      headersTimeout: 500,
    });
    await expect(asked).rejects.toThrow(/timeout/i);
    expect((await call(mock.url, 'GET', '/pets?limit=1')).status).toBe(200);
  });

  it('logs what it did not apply, with why, and the Error code of a refusal', async () => {
    await call(mock.url, 'GET', '/pets?limit=1', { headers: { prefer: 'respond-async, example=big, dynamic=true' } });
    expect(lines.at(-1)).toMatch(
      /^GET \/v1\/pets\?limit=1 200 [\d.]+ms \(not applied: respond-async: not a preference the mock knows or a repeated one; example=big: listPets is answered from the store; dynamic=true: listPets is answered from the store\)$/,
    );
    await call(mock.url, 'POST', '/pets', { body: { name: 1 } });
    expect(lines.at(-1)).toMatch(/^POST \/v1\/pets 400 validation_failed [\d.]+ms$/);
  });

  it('lets a page on another origin read Preference-Applied (CORS)', async () => {
    const reply = await call(mock.url, 'GET', '/pets?limit=1', {
      headers: { prefer: 'code=500', origin: 'http://localhost:5173' },
    });
    expect(String(reply.headers['access-control-expose-headers'])).toContain('Preference-Applied');
    const preflight = await call(mock.url, 'OPTIONS', '/pets', {
      auth: null,
      headers: { origin: 'http://localhost:5173', 'access-control-request-method': 'GET' },
    });
    expect(String(preflight.headers['access-control-allow-headers'])).toContain('Prefer');
  });
});

describe('Prefer: what is not applied is said', async () => {
  const lines: string[] = [];
  const mock = await startMock({ log: (line) => lines.push(line) });

  it('a success code the store answers otherwise is not claimed in Preference-Applied, and the log says why', async () => {
    const reply = await call(mock.url, 'GET', '/pets/987654321', { headers: { prefer: 'code=200' } });
    expect(reply.status).toBe(404);
    expect(reply.headers['preference-applied']).toBeUndefined();
    expect(lines.at(-1)).toMatch(/\(not applied: code=200: getPet answered 404 pet_not_found from the store\)$/);
  });

  it('a fault answers instead of a code, and a repeated preference counts the first time (RFC 7240)', async () => {
    await call(mock.url, 'GET', '/pets', { headers: { prefer: 'fault=empty, code=503' } }).catch(() => undefined);
    expect(lines.at(-1)).toMatch(/not applied: code=503: fault=empty answers instead/);
    const twice = await call(mock.url, 'GET', '/pets', { headers: { prefer: 'code=503, code=404' } });
    expect(twice.status).toBe(503);
  });

  it('a rule whose code the operation can never answer is refused when it is made, not on every request', async () => {
    const made = await request(`${mock.url.replace(/\/v1$/, '')}/__admin/rules`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ operationId: 'listPets', prefer: 'code=201' }),
    });
    const body = (await made.body.json()) as { code: string; message: string };
    expect(made.statusCode).toBe(400);
    expect(body.code).toBe('invalid_rule');
    expect(body.message).toMatch(/prefer: code=201 is not a documented status of listPets/);
    expect((await call(mock.url, 'GET', '/pets')).status).toBe(200);
  });
});
