import { describe, expect, it } from 'vitest';
import { call } from '../support/http.js';
import { startMock } from '../support/start-mock.js';

// RFC 9110 §9.3.2: HEAD is answered like GET, with the same status and headers and no body.
describe('HEAD', async () => {
  const mock = await startMock();
  const origin = new URL(mock.url).origin;

  it.each([
    ['listPets', mock.url, '/pets?limit=3', {}],
    ['getPet', mock.url, '/pets/1', {}],
    ['an unknown pet', mock.url, '/pets/999999', {}],
    ['a missing key', mock.url, '/pets', { auth: null }],
    ['an invalid limit', mock.url, '/pets?limit=0', {}],
    ['the admin health', origin, '/__admin/health', { auth: null }],
  ])('answers %s with the GET status and headers and no body', async (_, base, path, options) => {
    const get = await call(base, 'GET', path, options);
    const head = await call(base, 'HEAD', path, options);
    expect(head.status).toBe(get.status);
    expect(head.text).toBe('');
    for (const name of ['content-type', 'content-length', 'www-authenticate', 'deprecation', 'sunset', 'link']) {
      expect(head.headers[name], name).toBe(get.headers[name]);
    }
    expect(Number(head.headers['content-length'])).toBeGreaterThan(0);
  });

  it('is refused with 405 where the path has no GET, and Allow does not offer it', async () => {
    const reply = await call(mock.url, 'HEAD', '/messages');
    expect(reply.status).toBe(405);
    expect(reply.headers.allow).toBe('POST, OPTIONS');
    expect((await call(origin, 'HEAD', '/__admin/reset', { auth: null })).headers.allow).toBe('POST, OPTIONS');
  });
});
