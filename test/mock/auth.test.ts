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
  ['another scheme', 'Basic dXNlcjpwYXNz', 'unsupported_auth_scheme', 'must use the Bearer scheme: send Authorization'],
  ['a key without a scheme', 'petstore-dev-key', 'unsupported_auth_scheme', 'holds one word, not a scheme and a key'],
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

  it.each([
    'petstore-dev-key',
    ' petstore-dev-key ',
    'Basic petstore-dev-key',
    'Token petstore-dev-key',
    'petstore-dev-key Bearer',
    'bearer:petstore-dev-key',
    'Bearer petstore-dev-keyX',
    'Bearer petstore-dev-ke',
    'Bearer PETSTORE-DEV-KEY',
    `Bearer ${'petstore-dev-key'.repeat(5)}`,
    'petstore-dev-key'.repeat(5),
  ])('never repeats any part of the key in a 401 body (Authorization: %s)', async (authorization) => {
    const windows = Array.from({ length: 'petstore-dev-key'.length - 4 }, (_, i) => 'petstore-dev-key'.slice(i, i + 5));
    for (const [, method, path, body] of OPERATIONS) {
      const reply = await call(mock.url, method, path, { auth: authorization, body });
      expect(reply.status).toBe(401);
      for (const window of windows) expect(reply.text.toLowerCase()).not.toContain(window);
    }
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
