import { describe, expect, it } from 'vitest';
import { call } from '../support/http.js';
import { startMock } from '../support/start-mock.js';

// A create whose records nothing reads back (no get, no list) keeps no state, yet answers from the contract with
// what the request sent, a fresh id and now (src/mock/resource/unread-create-answers.ts). startMock checks every
// answer against the contract when each file ends.
const STATELESS = 'test/contracts/stateless-posts/openapi.yaml';

describe('a create nothing reads back, on the shipped contract (POST /messages)', async () => {
  const lines: string[] = [];
  const mock = await startMock({ log: (line) => lines.push(line) });
  const origin = new URL(mock.url).origin;
  const send = (message: string, headers: Record<string, string> = {}) =>
    call(mock.url, 'POST', '/messages', { body: { message }, headers });

  it('answers 202 within its 2XX, with the message sent, a fresh id shaped as the example, and now', async () => {
    const before = Date.now() - 1000;
    const [first, second] = [await send('hello'), await send('again')];
    expect([first.status, second.status]).toEqual([202, 202]);
    const [a, b] = [first.json, second.json] as Record<string, string>[];
    expect(a).toMatchObject({ message: 'hello', status: 'queued' });
    expect(b).toMatchObject({ message: 'again', status: 'queued' });
    // The example's id is msg_01HZY3K6T9: its prefix kept, ten new digits or capitals.
    expect(a?.id).toMatch(/^msg_[0-9A-Z]{10}$/);
    expect(a?.id).not.toBe(b?.id);
    // The example's createdAt has whole seconds; the answer's is now in that form.
    expect(a?.createdAt).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
    expect(Date.parse(a?.createdAt as string)).toBeGreaterThanOrEqual(Math.floor(before / 1000) * 1000);
  });

  it('takes from the request only what its schema offers: a status or an id sent along is not echoed', async () => {
    const reply = await call(mock.url, 'POST', '/messages', { body: { message: 'hi', status: 'delivered', id: 'msg_MINE' } });
    expect(reply.status).toBe(202);
    expect(reply.json).toMatchObject({ message: 'hi', status: 'queued' });
    expect((reply.json as { id: string }).id).not.toBe('msg_MINE');
  });

  it('answers another success in its range with Prefer: code=, and says it applied', async () => {
    const reply = await send('created', { prefer: 'code=201' });
    expect(reply.status).toBe(201);
    expect(reply.headers['preference-applied']).toBe('code=201');
    expect(reply.json).toMatchObject({ message: 'created' });
  });

  it("leaves example= to Prism, which answers the contract's example as it is", async () => {
    const reply = await send('ignored', { prefer: 'example=default' });
    expect(reply.status).toBe(200);
    expect(reply.headers['preference-applied']).toBe('example=default');
    expect(reply.json).toMatchObject({ id: 'msg_01HZY3K6T9', message: 'Hello, pet store' });
  });

  it('answers an error code= and a fault as every operation does', async () => {
    const failed = await send('x', { prefer: 'code=503' });
    expect(failed.status).toBe(503);
    expect(failed.json).toMatchObject({ status: 503 });
    await expect(send('x', { prefer: 'fault=reset' })).rejects.toThrow();
  });

  it('follows a runtime rule that asks for another success', async () => {
    const rule = await call(origin, 'POST', '/__admin/rules', {
      auth: null,
      body: { operationId: 'createMessage', prefer: 'code=200', count: 1 },
    });
    expect(rule.status).toBe(201);
    expect((await send('ruled')).status).toBe(200);
    expect((await send('after')).status).toBe(202);
  });

  it('refuses a rule naming an example the answer does not have', async () => {
    const rule = await call(origin, 'POST', '/__admin/rules', {
      auth: null,
      body: { operationId: 'createMessage', prefer: 'example=nope' },
    });
    expect(rule.status).toBe(400);
    expect((rule.json as { message: string }).message).toContain('examples: default');
  });
});

describe('creates nothing reads back, on a contract without pets', async () => {
  const mock = await startMock({ contract: STATELESS, fixtures: false });
  const post = (path: string, body: unknown) => call(mock.url, 'POST', path, { body });

  it('echoes the fields the answer has, gives each request a fresh uuid, and stamps a date-time with now', async () => {
    const before = Date.now() - 1000;
    const replies = [
      await post('/events', { kind: 'click', count: 3, note: 'not in the answer' }),
      await post('/events', { kind: 'view' }),
    ];
    expect(replies.map((r) => r.status)).toEqual([202, 202]);
    const [a, b] = replies.map((r) => r.json as Record<string, unknown>);
    expect(a).toMatchObject({ kind: 'click', count: 3 });
    expect(a).not.toHaveProperty('note');
    expect(b).toMatchObject({ kind: 'view' });
    expect(a?.id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(a?.id).not.toBe(b?.id);
    expect(Date.parse(a?.receivedAt as string)).toBeGreaterThanOrEqual(before);
  });

  it('answers a lone documented status as it is, with an id named by x-resource-id in the shape of its example', async () => {
    const [a, b] = [await post('/tickets', { subject: 'Printer on fire' }), await post('/tickets', { subject: 'Again' })];
    expect([a.status, b.status]).toEqual([201, 201]);
    const [first, second] = [a.json, b.json] as Record<string, string>[];
    expect(first).toMatchObject({ subject: 'Printer on fire', state: 'open' });
    // T-0042: the prefix kept, digits drawn anew, more of them than four so that two answers do not meet.
    expect(first?.code).toMatch(/^T-\d{15}$/);
    expect(first?.code).not.toBe(second?.code);
  });

  it('prefers 202 among listed successes, and fills the record inside a data wrapper', async () => {
    const before = Date.now() - 1000;
    const [a, b] = [await post('/orders', { item: 'chair' }), await post('/orders', { item: 'desk' })];
    expect([a.status, b.status]).toEqual([202, 202]);
    const [first, second] = [a.json, b.json] as { data: Record<string, unknown> }[];
    expect(first?.data).toMatchObject({ item: 'chair' });
    expect(second?.data).toMatchObject({ item: 'desk' });
    expect(Number.isInteger(first?.data.id) && (first?.data.id as number) >= 1).toBe(true);
    expect(first?.data.id).not.toBe(second?.data.id);
    // placedAt has no format; its example is a date-time, with milliseconds: now, in that form.
    expect(first?.data.placedAt).toMatch(/\.\d{3}Z$/);
    expect(Date.parse(first?.data.placedAt as string)).toBeGreaterThanOrEqual(before);
  });

  it('answers the documented 200 when Prefer asks for it', async () => {
    const reply = await call(mock.url, 'POST', '/orders', { body: { item: 'lamp' }, headers: { prefer: 'code=200' } });
    expect(reply.status).toBe(200);
    expect((reply.json as { data: unknown }).data).toMatchObject({ item: 'lamp' });
  });
});
