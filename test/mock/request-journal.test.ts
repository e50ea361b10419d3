import { describe, expect, it } from 'vitest';
import { call } from '../support/http.js';
import { sendRaw } from '../support/send-raw.js';
import { startMock } from '../support/start-mock.js';

interface Entry {
  time: string;
  method: string;
  path: string;
  query: string;
  operationId: string | null;
  status: number | null;
  durationMs: number;
  errorCode: string | null;
  applied: string[];
  headers: Record<string, string>;
  body: string | null;
  bodyTruncated: boolean;
}

const SECRET = 'journal-secret-key';

describe('GET /__admin/requests', async () => {
  const lines: string[] = [];
  const mock = await startMock({ apiKeys: [SECRET], journalSize: 5, log: (line) => lines.push(line) });
  const origin = new URL(mock.url).origin;
  const auth = `Bearer ${SECRET}`;
  const journal = async (query = '') => (await call(origin, 'GET', `/__admin/requests${query}`)).json as unknown as Entry[];

  it('shows what the app sent, newest first: method, path, query, operation, status, body, Error code, Prefer', async () => {
    await call(origin, 'DELETE', '/__admin/requests');
    await call(mock.url, 'GET', '/pets?limit=2', { auth });
    await call(mock.url, 'POST', '/pets', { auth, body: { name: 'Rex' }, headers: { prefer: 'delay=1' } });
    const [refused, listed] = await journal();
    expect(listed).toMatchObject({ method: 'GET', path: '/v1/pets', query: 'limit=2', operationId: 'listPets', status: 200 });
    expect(refused).toMatchObject({
      method: 'POST',
      operationId: 'createPet',
      status: 400,
      errorCode: 'validation_failed',
      body: '{"name":"Rex"}',
      applied: ['delay=1'],
    });
    expect(Date.parse(refused?.time ?? '')).not.toBeNaN();
    expect(refused?.durationMs).toBeGreaterThanOrEqual(0);
    expect(lines.filter((line) => line.startsWith('POST')).at(-1)).toMatch(/^POST \/v1\/pets 400 validation_failed [\d.]+ms$/);
  });

  it('logs what the client sent with its control characters escaped, C1 ones too: no line can forge another', async () => {
    const port = Number(new URL(origin).port);
    const forged = 'x\u0085POST /__admin/reset 200 0.1ms FORGED\u009b2J';
    await sendRaw(
      port,
      `GET /v1/pets?limit=1 HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: ${auth}\r\nPrefer: ${forged}\r\nConnection: close\r\n\r\n`,
    );
    const line = lines.filter((l) => l.startsWith('GET /v1/pets?limit=1 ')).at(-1) as string;
    // Sent as UTF-8 (C2 85), read by Node as Latin-1: Â and U+0085, which is escaped.
    expect(line).toContain('\\x85POST /__admin/reset 200 0.1ms FORGED');
    expect(line).toContain('\\x9b2J');
    expect(line).not.toMatch(/[\u0080-\u009f\u2028\u2029]/);
  });

  it('never shows a key, in the Authorization header or anywhere else, in any encoding', async () => {
    await call(origin, 'DELETE', '/__admin/requests');
    const base64 = Buffer.from(SECRET).toString('base64');
    await call(mock.url, 'GET', `/pets?key=${SECRET}&k2=${encodeURIComponent(base64)}`, {
      auth,
      headers: { 'x-api-key': SECRET },
    });
    await call(mock.url, 'POST', '/messages', {
      auth: 'Bearer some-other-token',
      body: { message: `some-other-token ${base64}` },
    });
    const text = (await call(origin, 'GET', '/__admin/requests')).text;
    expect(text).toContain('Bearer ***');
    for (const secret of [SECRET, base64, encodeURIComponent(base64), 'some-other-token']) expect(text).not.toContain(secret);
    expect(lines.join('\n')).not.toContain(SECRET);
  });

  it('never shows a key that the client put in Prefer, in a session name or in a header name', async () => {
    await call(origin, 'DELETE', '/__admin/requests');
    await call(mock.url, 'GET', '/pets', { auth, headers: { prefer: `example=${SECRET}, delay=${SECRET}, ${SECRET}` } });
    await call(mock.url, 'POST', '/pets', { auth, body: { name: 'Rex', categoryId: 1 }, headers: { 'x-mock-session': SECRET } });
    await call(mock.url, 'GET', '/pets', { auth, headers: { [SECRET]: '1' } });
    const text = (await call(origin, 'GET', '/__admin/requests')).text;
    expect(text).toContain('"notApplied":["delay=***: ');
    expect(text).not.toContain(SECRET);
    expect(lines.join('\n')).not.toContain(SECRET);
  });

  it('keeps at most 8 notes of what Prefer asked and was not applied, then a count, however many it lists', async () => {
    await call(origin, 'DELETE', '/__admin/requests');
    await call(mock.url, 'GET', '/pets', {
      auth,
      headers: { prefer: Array.from({ length: 1500 }, (_, i) => `p${i}`).join(',') },
    });
    const [entry] = (await call(origin, 'GET', '/__admin/requests')).json as unknown as { notApplied: string[] }[];
    expect(entry?.notApplied).toHaveLength(9);
    expect(entry?.notApplied.at(-1)).toMatch(/^and \d+ more not applied$/);
    expect((lines.at(-1) as string).length).toBeLessThan(2000);
  });

  it('filters by operation, keeps at most --journal-size entries, and clears on DELETE', async () => {
    for (let i = 0; i < 7; i++) await call(mock.url, 'GET', `/pets/${i + 1}`, { auth });
    await call(mock.url, 'GET', '/pets', { auth });
    expect(await journal()).toHaveLength(5);
    const gets = await journal('?operation=getPet');
    expect(gets.map((e) => e.path)).toEqual(['/v1/pets/7', '/v1/pets/6', '/v1/pets/5', '/v1/pets/4']);
    expect(await journal('?operation=getPet&limit=1')).toHaveLength(1);
    expect((await call(origin, 'DELETE', '/__admin/requests')).status).toBe(200);
    expect(await journal()).toEqual([]);
  });

  it('refuses an operation filter that names no operation, and a DELETE with a filter', async () => {
    const misspelt = await call(origin, 'GET', '/__admin/requests?operation=getPets');
    expect(misspelt.status).toBe(400);
    expect((misspelt.json as { message: string }).message).toContain('getPet');
    expect((await call(origin, 'DELETE', '/__admin/requests?operation=getPet')).status).toBe(400);
  });

  it('never shows a piece of the key where the body is cut', async () => {
    // The key starts 11 characters before the cut: cut first and redacted after, 11 of its characters showed.
    const name = `${'n'.repeat(4096 - 11 - '{"name":"'.length)}${SECRET}${'m'.repeat(200)}`;
    await call(mock.url, 'POST', '/pets', { auth, body: { name, categoryId: 1 } });
    const [entry] = await journal('?limit=1');
    expect(entry?.bodyTruncated).toBe(true);
    expect(entry?.body?.length).toBeLessThanOrEqual(4096);
    expect(entry?.body).not.toContain(SECRET.slice(0, 8));
    expect(entry?.body?.endsWith('***') || entry?.body?.includes('***m')).toBe(true);
  });

  it('keeps the first 4 KiB of a large body, marked as cut', async () => {
    await call(mock.url, 'POST', '/pets', { auth, body: { name: 'n'.repeat(100_000), categoryId: 1 } });
    const [entry] = await journal('?limit=1');
    expect(entry?.body?.length).toBe(4096);
    expect(entry?.bodyTruncated).toBe(true);
  });
});

describe('--log-format json', async () => {
  const lines: string[] = [];
  const mock = await startMock({ logFormat: 'json', log: (line) => lines.push(line) });

  it('logs one JSON object a line', async () => {
    await call(mock.url, 'GET', '/pets?limit=0');
    expect(JSON.parse(lines.at(-1) as string)).toMatchObject({
      method: 'GET',
      url: '/v1/pets?limit=0',
      status: 400,
      errorCode: 'invalid_parameter',
      operationId: 'listPets',
    });
  });
});

describe('onExchange', () => {
  it('carries the request body', async () => {
    const { createMockServer } = await import('../../src/mock/create-mock-server.js');
    const bodies: (string | undefined)[] = [];
    const mock = await createMockServer({ port: 0, fixtures: false, onExchange: (e) => bodies.push(e.requestBody) });
    await call(mock.url, 'POST', '/pets', { body: { name: 'Seen', categoryId: 1 } });
    await mock.close();
    expect(bodies).toEqual(['{"name":"Seen","categoryId":1}']);
  });
});

// Issue 23, requirement 4: credentials the mock did not issue are secrets too (cookies of every app on localhost).
describe('credentials in GET /__admin/requests and the log', async () => {
  const credentials = {
    cookie: 'sid=cookie-value-1; theme=cookie-value-2',
    'proxy-authorization': 'Basic cHJveHktdmFsdWU6cGFzcw==',
    'x-api-key': 'header-value-1',
    'x-auth-token': 'header-value-2',
    'x-mock-session': 'worker-a',
  };
  const query = 'api_key=query-value-1&limit=1&API%5FToken=query-value-2&status=available';
  const send = (url: string) => call(url, 'GET', `/pets?${query}`, { headers: credentials });
  const entryOf = async (origin: string) =>
    ((await call(origin, 'GET', '/__admin/requests?limit=1')).json as unknown as Entry[])[0] as Entry;

  describe('by default', async () => {
    const lines: string[] = [];
    const mock = await startMock({ log: (line) => lines.push(line) });

    it('masks the values of Cookie, Proxy-Authorization and credential-named headers and query parameters, keeping their names', async () => {
      expect((await send(mock.url)).status).toBe(200);
      const entry = await entryOf(new URL(mock.url).origin);
      expect(entry.headers).toMatchObject({
        cookie: 'sid=***; theme=***',
        'proxy-authorization': 'Basic ***',
        'x-api-key': '***',
        'x-auth-token': '***',
        'x-mock-session': 'worker-a',
      });
      expect(entry.query).toBe('api_key=***&limit=1&API%5FToken=***&status=available');
      const shown = `${JSON.stringify(entry)}\n${lines.join('\n')}`;
      for (const secret of ['cookie-value', 'header-value', 'query-value', 'cHJveHktdmFsdWU6cGFzcw'])
        expect(shown).not.toContain(secret);
      expect(lines.find((line) => line.startsWith('GET /v1/pets?'))).toContain('/v1/pets?api_key=***&limit=1');
    });

    it('never shows the value of a credential where the request repeats it, refused or not, plain or base64', async () => {
      // A production key sent by mistake, a Basic password, a cookie: each once in its header, and again in the
      // query (and the body) of the same request. Only the configured keys used to be looked for there.
      const secret = 'prod-key-0123456789';
      const b64 = Buffer.from(secret).toString('base64');
      const basic = `Basic ${Buffer.from(`me:${secret}`).toString('base64')}`;
      const pet = { name: b64, categoryId: 1, status: 'available' };
      const sent = [
        call(mock.url, 'GET', `/pets?q=${secret}`, { auth: `Bearer ${secret}` }),
        call(mock.url, 'GET', `/pets?q=${secret}`, { auth: basic }),
        call(mock.url, 'GET', `/pets?q=${b64}`, { headers: { 'proxy-authorization': basic } }),
        call(mock.url, 'GET', `/pets?q=${secret}`, { headers: { cookie: `theme=dark; sid=${secret}` } }),
        call(mock.url, 'POST', `/pets?q=${secret}`, { headers: { 'x-auth-token': secret }, body: pet }),
      ];
      expect((await Promise.all(sent)).map((reply) => reply.status).sort()).toEqual([200, 200, 201, 401, 401]);
      const entries = (await call(new URL(mock.url).origin, 'GET', '/__admin/requests?limit=5')).json as unknown as Entry[];
      expect(entries.map((entry) => entry.query)).toEqual(['q=***', 'q=***', 'q=***', 'q=***', 'q=***']);
      const shown = `${JSON.stringify(entries)}\n${lines.join('\n')}`;
      expect(shown).toContain('"name\\":\\"***\\"');
      for (const leak of [secret, b64, secret.slice(-12)]) expect(shown).not.toContain(leak);
    });
  });

  describe('with journalSecrets', async () => {
    const lines: string[] = [];
    const mock = await startMock({ journalSecrets: true, log: (line) => lines.push(line) });

    it('shows them as sent, Authorization still masked', async () => {
      await send(mock.url);
      const entry = await entryOf(new URL(mock.url).origin);
      expect(entry.headers).toMatchObject({
        cookie: credentials.cookie,
        'x-api-key': 'header-value-1',
        authorization: 'Bearer ***',
      });
      expect(entry.query).toBe(query);
      expect(lines.find((line) => line.startsWith('GET /v1/pets?'))).toContain('api_key=query-value-1');
    });
  });
});

describe("the journal's byte budget", async () => {
  const mock = await startMock({ apiKeys: [SECRET], journalSize: 700, journalBytes: 200_000 });
  const origin = new URL(mock.url).origin;
  const journal = async () => (await call(origin, 'GET', '/__admin/requests')).json as unknown as Entry[];
  const big = 'b'.repeat(12_000);

  it('keeps refused requests (no key) without their headers, so 15 KB headers cannot fill the heap', async () => {
    for (let i = 0; i < 150; i++) {
      expect((await call(mock.url, 'GET', `/pets?i=${i}`, { auth: null, headers: { 'x-big': big } })).status).toBe(401);
    }
    const kept = await journal();
    // 150 records of 12 KB headers would be 3.6 MB at two bytes a character: 18 times the budget.
    expect(kept).toHaveLength(150);
    expect(kept[0]).toMatchObject({ status: 401, query: 'i=149', headers: {}, body: null });
  });

  it('cuts a header value to 1 KiB, and drops the oldest requests past the budget', async () => {
    for (let i = 0; i < 100; i++) {
      const answer = await call(mock.url, 'GET', `/pets?limit=1&j=${i}`, { auth: `Bearer ${SECRET}`, headers: { 'x-big': big } });
      expect(answer.status).toBe(200);
    }
    const kept = await journal();
    expect(kept[0]?.query).toBe('limit=1&j=99');
    expect(kept[0]?.headers['x-big']).toBe('b'.repeat(1024));
    // Each kept record holds 2 KiB of that header (1 KiB shown, more kept for redaction): about 4.5 KB in memory,
    // so 200 KB holds about 40 of them, and none of the older refused ones.
    expect(kept.length).toBeGreaterThan(10);
    expect(kept.length).toBeLessThan(100);
    expect(kept.every((entry) => entry.status === 200)).toBe(true);
  });
});

describe('a small --journal-bytes', async () => {
  // The default count (1000) is more than 4 KiB can hold: it is lowered to fit, not refused, when nobody asked for it.
  const mock = await startMock({ journalBytes: 4096 });

  it('starts with the default journal size lowered to what the budget holds', async () => {
    for (let i = 0; i < 30; i++) await call(mock.url, 'GET', `/pets?limit=1&k=${i}`);
    const kept = (await call(new URL(mock.url).origin, 'GET', '/__admin/requests')).json as unknown as Entry[];
    expect(kept.length).toBeGreaterThan(0);
    expect(kept.length).toBeLessThanOrEqual(4096 / 256);
    expect(kept[0]?.query).toBe('limit=1&k=29');
  });
});
