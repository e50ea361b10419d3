import { describe, expect, it } from 'vitest';
import { call } from '../support/http.js';
import { startMock } from '../support/start-mock.js';

const OPERATIONS = [
  ['listPets', 'GET', '/pets', undefined],
  ['createPet', 'POST', '/pets', { name: 'a', categoryId: 1 }],
  ['getPet', 'GET', '/pets/1', undefined],
  ['createMessage', 'POST', '/messages', { message: 'hi' }],
] as const;

const CASES = [
  ['no Authorization header', null, 'missing_authorization', 'the Authorization header is missing'],
  ['another scheme', 'Basic dXNlcjpwYXNz', 'unsupported_auth_scheme', "must use the Bearer scheme (got 'Basic')"],
  ['an empty token', 'Bearer ', 'empty_api_key', 'no API key'],
  ['a bare scheme', 'Bearer', 'empty_api_key', 'no API key'],
  ['an unknown key', 'Bearer not-a-key', 'invalid_api_key', 'the API key is not valid'],
  ['a key that differs in case', 'Bearer PETSTORE-DEV-KEY', 'invalid_api_key', 'the API key is not valid'],
] as const;

describe('authentication', async () => {
  const mock = await startMock();

  describe.each(OPERATIONS)('%s', (_, method, path, body) => {
    it.each(CASES)('answers 401 for %s', async (_case, authorization, code, message) => {
      const reply = await call(mock.url, method, path, { auth: authorization, body });
      expect(reply.status).toBe(401);
      expect(reply.json).toMatchObject({ code, status: 401 });
      expect((reply.json as { message: string }).message).toContain(message);
      expect(reply.headers['www-authenticate']).toBe('Bearer realm="petstore"');
    });

    it('accepts the development key with the scheme in any case', async () => {
      const reply = await call(mock.url, method, path, { auth: 'bEaReR petstore-dev-key', body });
      expect(reply.status).toBeLessThan(300);
    });
  });

  it('checks the key before the body: a bad body with no key is a 401', async () => {
    const reply = await call(mock.url, 'POST', '/pets', {
      auth: null,
      body: '{oops',
      headers: { 'content-type': 'application/json' },
    });
    expect(reply.status).toBe(401);
  });
});

describe('configured keys', async () => {
  const mock = await startMock({ apiKeys: ['key-one', 'key-two'] });

  it('accepts every configured key and no longer the development key', async () => {
    expect((await call(mock.url, 'GET', '/pets', { auth: 'Bearer key-one' })).status).toBe(200);
    expect((await call(mock.url, 'GET', '/pets', { auth: 'Bearer key-two' })).status).toBe(200);
    expect((await call(mock.url, 'GET', '/pets', { auth: 'Bearer key-on' })).status).toBe(401);
    expect((await call(mock.url, 'GET', '/pets')).status).toBe(401);
  });
});
