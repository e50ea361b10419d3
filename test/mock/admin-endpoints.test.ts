import { describe, expect, it } from 'vitest';
import { call } from '../support/http.js';
import { startMock } from '../support/start-mock.js';

const EVIL = 'http://evil.test';

describe('admin endpoints and browsers', async () => {
  const mock = await startMock();
  const origin = new URL(mock.url).origin;

  it('refuses a cross-origin POST /__admin/reset with 403 admin_cross_origin and resets nothing', async () => {
    const created = await call(mock.url, 'POST', '/pets', { body: { name: 'Keep me', categoryId: 1 } });
    const id = (created.json as { id: number }).id;
    const reply = await call(origin, 'POST', '/__admin/reset', { auth: null, headers: { origin: EVIL } });
    expect(reply.status).toBe(403);
    expect(reply.json).toMatchObject({ code: 'admin_cross_origin', status: 403 });
    expect((reply.json as { message: string }).message).toContain(EVIL);
    expect(reply.headers['access-control-allow-origin']).toBeUndefined();
    expect((await call(mock.url, 'GET', `/pets/${id}`)).status).toBe(200);
  });

  it.each([
    ['GET', '/__admin/health', {}],
    ['GET', '/__admin/pets', {}],
    ['OPTIONS', '/__admin/reset', { 'access-control-request-method': 'POST' }],
    ['POST', '/__admin/reset', {}],
  ])('sends no CORS headers and 403 to %s %s from another origin', async (method, path, headers) => {
    for (const sender of [EVIL, 'null', 'http://localhost:5173']) {
      const reply = await call(origin, method, path, { auth: null, headers: { origin: sender, ...headers } });
      expect(reply.status).toBe(403);
      expect(reply.headers['access-control-allow-origin']).toBeUndefined();
      expect(reply.headers['access-control-allow-methods']).toBeUndefined();
    }
  });

  it('answers requests without Origin, and from the mock’s own origin', async () => {
    expect((await call(origin, 'GET', '/__admin/health', { auth: null })).status).toBe(200);
    expect((await call(origin, 'POST', '/__admin/reset', { auth: null, headers: { origin } })).status).toBe(200);
  });

  it.each([
    ['POST', '/__admin/health', 'GET, HEAD, OPTIONS'],
    ['DELETE', '/__admin/pets', 'GET, HEAD, OPTIONS'],
    ['GET', '/__admin/reset', 'POST, OPTIONS'],
  ])('answers %s %s with 405 and Allow: %s', async (method, path, allow) => {
    const reply = await call(origin, method, path, { auth: null });
    expect(reply.status).toBe(405);
    expect(reply.headers.allow).toBe(allow);
    expect(reply.json).toMatchObject({ code: 'method_not_allowed', status: 405 });
  });

  it('refuses a query parameter an admin endpoint does not take, and acts on nothing', async () => {
    await call(mock.url, 'POST', '/pets', { body: { name: 'Kept', categoryId: 1 } });
    const rule = await call(origin, 'POST', '/__admin/rules', {
      auth: null,
      body: { operationId: 'getPet', prefer: 'code=503' },
    });
    const pets = mock.store.size;
    for (const [method, path] of [
      ['DELETE', '/__admin/rules?ID=1'],
      ['POST', '/__admin/reset?session=a'],
      ['GET', '/__admin/requests?operationId=getPet'],
    ] as const) {
      const refused = await call(origin, method, path, { auth: null });
      expect(refused.status, path).toBe(400);
      expect(refused.json).toMatchObject({ code: 'invalid_parameter' });
      expect((refused.json as { message: string }).message).toMatch(/^query\.\w+: this admin endpoint takes /);
    }
    expect(mock.store.size).toBe(pets);
    const id = (rule.json as { id: number }).id;
    const twice = await call(origin, 'DELETE', `/__admin/rules?id=${id}&id=${id + 1}`, { auth: null });
    expect(twice.status).toBe(400);
    expect((twice.json as { message: string }).message).toBe('query.id: must be given once (got 2 values)');
    expect((await call(origin, 'GET', '/__admin/requests?limit=1&limit=2', { auth: null })).status).toBe(400);
    expect((await call(origin, 'GET', '/__admin/rules', { auth: null })).json).toHaveLength(1);
    await call(origin, 'DELETE', `/__admin/rules?id=${id}`, { auth: null });
  });

  it('answers an unknown admin path with 404', async () => {
    expect((await call(origin, 'GET', '/__admin/nope', { auth: null })).status).toBe(404);
  });
});

describe('admin endpoints with an explicit --cors-origin', async () => {
  const mock = await startMock({ corsOrigins: ['http://app.test'] });
  const origin = new URL(mock.url).origin;

  it('lets that origin call them, with CORS headers, and still refuses others', async () => {
    const preflight = await call(origin, 'OPTIONS', '/__admin/reset', {
      auth: null,
      headers: { origin: 'http://app.test', 'access-control-request-method': 'POST' },
    });
    expect(preflight.status).toBe(204);
    expect(preflight.headers['access-control-allow-origin']).toBe('http://app.test');
    expect(preflight.headers['access-control-allow-methods']).toBe('GET, HEAD, POST, DELETE, PUT, OPTIONS');
    const reset = await call(origin, 'POST', '/__admin/reset', { auth: null, headers: { origin: 'http://app.test' } });
    expect(reset.status).toBe(200);
    expect(reset.headers['access-control-allow-origin']).toBe('http://app.test');
    expect((await call(origin, 'POST', '/__admin/reset', { auth: null, headers: { origin: EVIL } })).status).toBe(403);
  });
});
