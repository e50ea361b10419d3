import { describe, expect, it } from 'vitest';
import { call } from '../support/http.js';
import { startMock } from '../support/start-mock.js';

describe('Prefer: code=NNN', async () => {
  const mock = await startMock();

  it('answers a documented status with the contract’s example, leaving the store alone', async () => {
    const before = mock.store.size;
    const reply = await call(mock.url, 'POST', '/pets', { body: { name: 'a', categoryId: 1 }, headers: { prefer: 'code=400' } });
    expect(reply.status).toBe(400);
    expect(reply.json).toEqual({ code: 'validation_failed', message: 'body.categoryId: must be integer', status: 400 });
    expect(mock.store.size).toBe(before);
  });

  it('gives getPet’s 404 example, with the deprecation headers', async () => {
    const reply = await call(mock.url, 'GET', '/pets/1', { headers: { prefer: 'code=404' } });
    expect(reply.status).toBe(404);
    expect(reply.json).toMatchObject({ status: 404 });
    expect(reply.headers.sunset).toBe('Thu, 05 Dec 2030 00:00:00 GMT');
  });

  it('still requires the key', async () => {
    const reply = await call(mock.url, 'GET', '/pets', { auth: null, headers: { prefer: 'code=200' } });
    expect(reply.status).toBe(401);
    expect(reply.json).toMatchObject({ code: 'missing_authorization' });
  });

  it('answers 400 for a status the operation does not document, listing the documented ones', async () => {
    const reply = await call(mock.url, 'GET', '/pets', { headers: { prefer: 'code=418' } });
    expect(reply.status).toBe(400);
    expect(reply.json).toMatchObject({
      code: 'invalid_parameter',
      message: 'header.prefer: code=418 is not a documented status of listPets (documented: 200, 401)',
    });
  });
});
