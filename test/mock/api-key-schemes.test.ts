import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMockServer, type MockServer } from '../../src/mock/create-mock-server.js';
import { call } from '../support/http.js';

// test/contracts/api-key: X-API-Key header for most operations, ?api_key= for deleteNote, the notes_key cookie for
// exportNotes, HTTP Basic for getAccount, an oauth2 access token (Bearer) for getProfile, none for getHealth.
const CONTRACT = 'test/contracts/api-key/openapi.yaml';
// Short: under the length redaction by value looks for, so only masking by position keeps it out of the journal.
const KEY = 'k3y';
const WRONG = 'n0pe';

describe.each([false, true])('the mock on a contract whose keys are apiKey schemes (--journal-secrets: %s)', (journalSecrets) => {
  let mock: MockServer;
  const lines: string[] = [];
  beforeAll(async () => {
    mock = await createMockServer({
      contract: CONTRACT,
      port: 0,
      host: '127.0.0.1',
      apiKeys: [KEY],
      fixtures: false,
      journalSecrets,
      log: (line) => lines.push(line),
    });
  });
  afterAll(() => mock.close());

  const get = (path: string, headers: Record<string, string> = {}, method = 'GET') =>
    call(mock.url, method, path, { auth: null, headers });

  it.each([
    ['the X-API-Key header', '/notes', (key: string) => ({ path: '/notes', headers: { 'x-api-key': key, cookie: 'region=us' } })],
    ['the api_key query parameter', '/notes/1', (key: string) => ({ path: `/notes/1?api_key=${key}`, headers: {} })],
    [
      'the notes_key cookie',
      '/export',
      (key: string) => ({ path: '/export', headers: { cookie: `theme=dark; notes_key=${key}; region=eu` } }),
    ],
  ])(
    'takes the key in %s, and refuses it missing or wrong with the contract 401 and no challenge',
    async (where, bare, with_) => {
      const method = bare === '/notes/1' ? 'DELETE' : 'GET';
      const missing = await get(bare, {}, method);
      expect(missing.status).toBe(401);
      expect(missing.json).toMatchObject({ code: 'missing_api_key', message: expect.stringContaining(where) });
      // RFC 9110 §15.5.2 asks a challenge of HTTP authentication schemes only: an apiKey scheme has none.
      expect(missing.headers['www-authenticate']).toBeUndefined();
      const wrong = with_(WRONG);
      expect((await get(wrong.path, wrong.headers, method)).json).toMatchObject({ code: 'invalid_api_key' });
      // The key as a Bearer token is not where the scheme puts it.
      expect((await get(bare, { authorization: `Bearer ${KEY}` }, method)).status).toBe(401);
      const right = with_(KEY);
      const served = await get(right.path, right.headers, method);
      expect([200, 204, 404]).toContain(served.status);
    },
  );

  it('takes HTTP Basic whose user:password is the key, and challenges with Basic', async () => {
    const basic = (key: string) => ({ authorization: `Basic ${Buffer.from(key).toString('base64')}` });
    const missing = await get('/account');
    expect(missing.status).toBe(401);
    expect(missing.headers['www-authenticate']).toMatch(/^Basic /);
    expect((await get('/account', basic(WRONG))).json).toMatchObject({ code: 'invalid_api_key' });
    expect((await get('/account', { authorization: `Bearer ${KEY}` })).json).toMatchObject({ code: 'unsupported_auth_scheme' });
    expect((await get('/account', basic(KEY))).status).toBe(200);
  });

  it('takes an oauth2 access token as Bearer: one of its keys, refused missing or wrong with a Bearer challenge', async () => {
    const missing = await get('/profile');
    expect(missing.status).toBe(401);
    expect(missing.headers['www-authenticate']).toMatch(/^Bearer /);
    expect((await get('/profile', { authorization: `Bearer ${WRONG}` })).json).toMatchObject({ code: 'invalid_api_key' });
    expect((await get('/profile', { 'x-api-key': KEY })).status).toBe(401);
    expect((await get('/profile', { authorization: `Bearer ${KEY}` })).status).toBe(200);
  });

  it('reads a cookie parameter: refuses a request without the required one, or with a value outside its schema', async () => {
    const refused = await get('/notes', { 'x-api-key': KEY });
    expect(refused.status).toBe(400);
    expect(refused.json).toMatchObject({ code: 'invalid_parameter', message: expect.stringContaining('cookie.region') });
    expect((await get('/notes', { 'x-api-key': KEY, cookie: 'region=mars' })).status).toBe(400);
    expect((await get('/export', { cookie: `notes_key=${KEY}` })).status).toBe(400);
    expect((await get('/export', { cookie: `region=eu;notes_key=${KEY}` })).status).toBe(200);
  });

  it('refuses the key given twice in the query, and serves the operation with security: [] without one', async () => {
    expect((await get(`/notes/1?api_key=${KEY}&api_key=${KEY}`, {}, 'DELETE')).json).toMatchObject({ code: 'repeated_api_key' });
    expect((await get('/health')).status).toBe(200);
  });

  // --journal-secrets shows cookies and credential-named headers, but not the mock's own keys where the scheme puts
  // them, as it never shows Authorization.
  it('masks the key in the journal and the log by where the scheme puts it', async () => {
    await get('/notes', { 'x-api-key': KEY });
    await get(`/notes/1?api_key=${KEY}`, {}, 'DELETE');
    await get(`/notes/1?api_key=${WRONG}`, {}, 'DELETE');
    await get('/export', { cookie: `theme=dark; notes_key=${KEY}` });
    const journal = await call(mock.url.replace(/\/v1$/, ''), 'GET', '/__admin/requests?limit=20', { auth: null });
    const text = `${journal.text}\n${lines.join('\n')}`;
    for (const secret of [KEY, WRONG]) {
      expect(text).not.toMatch(new RegExp(`[=:"]\\s*${secret}\\b`));
    }
    expect(journal.text).toContain('"query":"api_key=***"');
    expect(journal.text).toContain('"x-api-key":"***"');
    expect(journal.text).toContain(
      journalSecrets ? '"cookie":"theme=dark; notes_key=***"' : '"cookie":"theme=***; notes_key=***"',
    );
    expect(lines.join('\n')).toContain('DELETE /v1/notes/1?api_key=*** ');
  });
});
