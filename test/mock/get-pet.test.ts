import { describe, expect, it } from 'vitest';
import { call } from '../support/http.js';
import { startMock } from '../support/start-mock.js';

describe('getPet', async () => {
  const mock = await startMock();

  it('answers 200 with the stored pet', async () => {
    const reply = await call(mock.url, 'GET', '/pets/1');
    expect(reply.status).toBe(200);
    expect(reply.json).toEqual(mock.store.get(1));
  });

  it('answers 404 pet_not_found for an unknown id', async () => {
    const reply = await call(mock.url, 'GET', '/pets/999999');
    expect(reply.status).toBe(404);
    expect(reply.json).toEqual({ code: 'pet_not_found', message: 'no record of /pets has id 999999', status: 404 });
  });

  it.each(['9223372036854775807', '-9223372036854775808', '9007199254740993'])(
    'answers 404 (not 400) for the int64 id %s',
    async (id) => {
      const reply = await call(mock.url, 'GET', `/pets/${id}`);
      expect(reply.status).toBe(404);
      expect(reply.json).toEqual({ code: 'pet_not_found', message: `no record of /pets has id ${id}`, status: 404 });
    },
  );

  it.each(['9223372036854775808', 'abc', '1.5', '%20'])(
    'answers 404 invalid_path_parameter for the non-int64 id %s',
    async (id) => {
      const reply = await call(mock.url, 'GET', `/pets/${id}`);
      expect(reply.status).toBe(404);
      expect(reply.json).toMatchObject({ code: 'invalid_path_parameter', status: 404 });
      expect((reply.json as { message: string }).message).toMatch(/^path\.petId: must be/);
    },
  );

  it.each([
    ['a found pet', '/pets/1', 200],
    ['an unknown pet', '/pets/424242', 404],
    ['a missing key', '/pets/1', 401],
  ])('signals deprecation on %s (RFC 9745, RFC 8594)', async (_, path, status) => {
    const reply = await call(mock.url, 'GET', path, status === 401 ? { auth: null } : {});
    expect(reply.status).toBe(status);
    expect(reply.headers.deprecation).toMatch(/^@\d+$/);
    expect(reply.headers.sunset).toBe('Thu, 05 Dec 2030 00:00:00 GMT');
    expect(reply.headers.link).toBe('</v1/pets>; rel="successor-version"');
  });

  it('sends no deprecation headers on operations that are not deprecated', async () => {
    const reply = await call(mock.url, 'GET', '/pets');
    expect(reply.headers.deprecation).toBeUndefined();
    expect(reply.headers.sunset).toBeUndefined();
  });
});
