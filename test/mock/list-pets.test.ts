import { describe, expect, it } from 'vitest';
import { call } from '../support/http.js';
import { startMock } from '../support/start-mock.js';

type PetJson = { id: number; status?: string };

describe('listPets', async () => {
  const mock = await startMock();

  it('returns 20 pets when no limit is given (the contract default)', async () => {
    expect(mock.store.size).toBeGreaterThan(20);
    const reply = await call(mock.url, 'GET', '/pets');
    expect(reply.status).toBe(200);
    expect(reply.headers['content-type']).toBe('application/json');
    expect(reply.json).toHaveLength(20);
  });

  it('honours limit and keeps a stable order, newest first', async () => {
    const first = (await call(mock.url, 'GET', '/pets?limit=5')).json as PetJson[];
    const again = (await call(mock.url, 'GET', '/pets?limit=5')).json as PetJson[];
    expect(first).toHaveLength(5);
    expect(again).toEqual(first);
    const ids = first.map((p) => p.id);
    expect(ids).toEqual([...ids].sort((a, b) => b - a));
  });

  it('shows a pet the app has just created at the top of the default page, past 20 fixtures', async () => {
    expect(mock.store.size).toBeGreaterThan(20);
    const created = await call(mock.url, 'POST', '/pets', { body: { name: 'Just made', categoryId: 1 } });
    const page = (await call(mock.url, 'GET', '/pets')).json as PetJson[];
    expect(page[0]?.id).toBe((created.json as PetJson).id);
  });

  it('returns every pet up to limit=100', async () => {
    const reply = await call(mock.url, 'GET', '/pets?limit=100');
    expect(reply.json).toHaveLength(Math.min(100, mock.store.size));
  });

  it('filters by status=sold exactly, including pets created over HTTP', async () => {
    const sold = await call(mock.url, 'POST', '/pets', { body: { name: 'Sold One', categoryId: 3, status: 'sold' } });
    await call(mock.url, 'POST', '/pets', { body: { name: 'Pending One', categoryId: 3, status: 'pending' } });
    const list = (await call(mock.url, 'GET', '/pets?status=sold&limit=100')).json as PetJson[];
    expect(list.length).toBeGreaterThan(1);
    expect(list.every((p) => p.status === 'sold')).toBe(true);
    expect(list.map((p) => p.id)).toContain((sold.json as PetJson).id);
  });

  it.each([
    ['limit=0', 'query.limit: must be >= 1'],
    ['limit=101', 'query.limit: must be <= 100'],
    ['limit=abc', 'query.limit: must be integer'],
    ['limit=1.5', 'query.limit: must be integer'],
    ['limit=', 'query.limit: must be integer'],
    ['limit=1&limit=2', 'query.limit: must be given once (got 2 values)'],
    ['status=lost', 'query.status: must be one of "available", "pending", "sold"'],
    ['status=SOLD', 'query.status: must be one of "available", "pending", "sold"'],
  ])('answers 400 invalid_parameter for %s', async (query, message) => {
    const reply = await call(mock.url, 'GET', `/pets?${query}`);
    expect(reply.status).toBe(400);
    expect(reply.json).toEqual({ code: 'invalid_parameter', message, status: 400 });
  });
});
