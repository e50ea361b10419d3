import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMockServer, type MockServer } from '../../src/mock/create-mock-server.js';
import { call } from '../support/http.js';

// test/contracts/org-teams: `security: [{apiKey: []}, {bearer: []}]`, an X-Api-Key header OR a bearer token.
const CONTRACT = 'test/contracts/org-teams/openapi.yaml';
const KEY = 'alternatives-key';

describe('the mock on a contract whose security lists alternatives', () => {
  let mock: MockServer;
  beforeAll(async () => {
    mock = await createMockServer({
      contract: CONTRACT,
      port: 0,
      host: '127.0.0.1',
      apiKeys: [KEY],
      fixtures: false,
      log: () => {},
    });
  });
  afterAll(() => mock.close());

  let made = 0;
  const create = (headers: Record<string, string>) =>
    call(mock.url, 'POST', '/orgs', { auth: null, headers, body: { login: `org-${++made}`, name: 'Acme' } });

  it.each([
    ['the X-Api-Key header', { 'x-api-key': KEY }],
    ['a bearer token', { authorization: `Bearer ${KEY}` }],
  ])('admits the key in %s: any one alternative is enough (OpenAPI 3 §4.8.30)', async (_where, headers) => {
    const created = await create(headers);
    expect(created.status).toBe(201);
  });

  it('refuses a wrong credential in either place as invalid, not as the other one missing', async () => {
    const wrong: Record<string, string>[] = [{ 'x-api-key': 'wrong-key-value' }, { authorization: 'Bearer wrong-key-value' }];
    for (const headers of wrong) {
      const refused = await create(headers);
      expect(refused.status).toBe(401);
      expect(refused.json).toMatchObject({ code: 'invalid_api_key' });
    }
  });

  it('tells a request with no credentials every place a key is taken, and challenges with Bearer', async () => {
    const refused = await create({});
    expect(refused.status).toBe(401);
    expect(refused.json).toMatchObject({
      message: expect.stringContaining('X-Api-Key: <API_KEY> or Authorization: Bearer <API_KEY>'),
    });
    // RFC 9110 §15.5.2: a 401 names an HTTP authentication scheme the client may use; the bearer alternative is one.
    expect(refused.headers['www-authenticate']).toMatch(/^Bearer /);
  });
});
