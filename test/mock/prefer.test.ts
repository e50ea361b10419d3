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

  it('answers 400 for a status the operation does not document, listing the documented ones', async () => {
    const reply = await call(mock.url, 'GET', '/pets', { headers: { prefer: 'code=418' } });
    expect(reply.status).toBe(400);
    expect(reply.json).toMatchObject({
      code: 'invalid_parameter',
      message: 'header.prefer: code=418 is not a documented status of listPets (documented: 200, 401)',
    });
  });
});
