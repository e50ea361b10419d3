import { describe, expect, it } from 'vitest';
import { call } from '../support/http.js';
import { startMock } from '../support/start-mock.js';

describe('runtime rules (POST /__admin/rules)', async () => {
  const mock = await startMock();
  const origin = new URL(mock.url).origin;
  const addRule = (rule: unknown) => call(origin, 'POST', '/__admin/rules', { auth: null, body: rule });

  it('makes the next matching requests fail without the app sending Prefer, then stops after count', async () => {
    const added = await addRule({ operationId: 'getPet', prefer: 'code=503', count: 2 });
    expect(added.status).toBe(201);
    expect(added.json).toMatchObject({ id: 1, operationId: 'getPet', prefer: 'code=503', count: 2, applied: 0 });
    expect((await call(mock.url, 'GET', '/pets?limit=1')).status).toBe(200);
    for (let i = 0; i < 2; i++) {
      const failed = await call(mock.url, 'GET', '/pets/1');
      expect(failed.status).toBe(503);
      expect(failed.headers['preference-applied']).toBe('code=503');
    }
    expect((await call(mock.url, 'GET', '/pets/1')).status).toBe(200);
    const [entry] = (await call(origin, 'GET', '/__admin/requests?operation=getPet&limit=2')).json as { rule: number | null }[];
    expect(entry?.rule).toBeNull();
    expect((await call(origin, 'GET', '/__admin/rules')).json).toEqual([]);
  });

  it('applies only to its session, lets the request’s own Prefer win, and is cleared by a reset', async () => {
    await addRule({ operationId: 'listPets', prefer: 'code=500', session: 'flaky' });
    expect((await call(mock.url, 'GET', '/pets?limit=1')).status).toBe(200);
    expect((await call(mock.url, 'GET', '/pets?limit=1', { headers: { 'x-mock-session': 'flaky' } })).status).toBe(500);
    const own = await call(mock.url, 'GET', '/pets?limit=1', { headers: { 'x-mock-session': 'flaky', prefer: 'code=401' } });
    expect(own.status).toBe(401);
    await call(origin, 'POST', '/__admin/reset', { auth: null });
    expect((await call(mock.url, 'GET', '/pets?limit=1', { headers: { 'x-mock-session': 'flaky' } })).status).toBe(200);
  });

  it('applies with a probability (0.5 over 200 requests is neither none nor all)', async () => {
    await addRule({ operationId: 'getPet', prefer: 'code=502', probability: 0.5 });
    let failed = 0;
    for (let i = 0; i < 200; i++) if ((await call(mock.url, 'GET', '/pets/2')).status === 502) failed++;
    expect(failed).toBeGreaterThan(40);
    expect(failed).toBeLessThan(160);
    expect((await call(origin, 'DELETE', '/__admin/rules', { auth: null })).status).toBe(200);
    expect((await call(mock.url, 'GET', '/pets/2')).status).toBe(200);
  });

  it.each([
    [{ operationId: 'nope', prefer: 'code=503' }, 'operationId: must be one of'],
    [{ operationId: 'getPet', prefer: 'explode=1' }, 'not a preference the mock knows: explode=1'],
    [{ operationId: 'getPet', prefer: 'code=503', count: 0 }, 'count: must be'],
    [{ operationId: 'getPet', prefer: 'code=503', probability: 2 }, 'probability: must be'],
    ['not json', 'the body is not JSON'],
  ])('refuses %j with 400 invalid_rule', async (rule, message) => {
    const reply = await addRule(rule);
    expect(reply.status).toBe(400);
    expect(reply.json).toMatchObject({ code: 'invalid_rule', status: 400 });
    expect((reply.json as { message: string }).message).toContain(message);
  });

  it('refuses a field it does not know, takes back what GET shows, and removes one rule by id', async () => {
    await call(origin, 'DELETE', '/__admin/rules');
    const typo = await addRule({ operationId: 'listPets', prefer: 'code=503', cout: 2 });
    expect(typo.status).toBe(400);
    expect((typo.json as { message: string }).message).toContain("'cout'");
    const first = await addRule({ operationId: 'getPet', prefer: 'delay=1' });
    const [shown] = (await call(origin, 'GET', '/__admin/rules')).json as Record<string, unknown>[];
    expect(shown).toMatchObject({ count: null, probability: null, session: null });
    expect((await addRule(shown)).status).toBe(201);
    const id = (first.json as { id: number }).id;
    expect((await call(origin, 'DELETE', `/__admin/rules?id=${id}`)).status).toBe(200);
    expect(((await call(origin, 'GET', '/__admin/rules')).json as { id: number }[]).map((r) => r.id)).not.toContain(id);
    expect((await call(origin, 'DELETE', `/__admin/rules?id=${id}`)).status).toBe(404);
  });

  it('says in the Error that a rule, not Prefer, asked for the status', async () => {
    await call(origin, 'DELETE', '/__admin/rules');
    const { json } = await addRule({ operationId: 'getPet', prefer: 'code=503', count: 1 });
    const failed = await call(mock.url, 'GET', '/pets/1');
    expect((failed.json as { message: string }).message).toContain(`runtime rule ${(json as { id: number }).id}: code=503`);
  });
});
