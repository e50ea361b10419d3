import { describe, expect, it } from 'vitest';
import { call, type Reply } from '../support/http.js';
import { sendRaw } from '../support/send-raw.js';
import { startMock } from '../support/start-mock.js';

// Issue 23, requirement 1: the browser boundary as Vite draws it since CVE-2025-24010.
const AUTH = 'Authorization: Bearer petstore-dev-key\r\n';
const EVIL = 'https://attacker.example';

function statusLine(text: string): string {
  return text.slice(0, text.indexOf('\r\n'));
}

const preflight = (url: string, origin: string, path = '/pets') =>
  call(url, 'OPTIONS', path, {
    auth: null,
    headers: { origin, 'access-control-request-method': 'GET', 'access-control-request-private-network': 'true' },
  });

function expectNoCors(reply: Reply): void {
  expect(reply.headers['access-control-allow-origin']).toBeUndefined();
  expect(reply.headers['access-control-allow-credentials']).toBeUndefined();
  expect(reply.headers['access-control-allow-private-network']).toBeUndefined();
}

describe('the browser boundary by default', async () => {
  const lines: string[] = [];
  const mock = await startMock({ log: (line) => lines.push(line) });
  const origin = new URL(mock.url).origin;
  const port = Number(new URL(mock.url).port);

  it('lets no page on another site read the API: no CORS headers for its Origin', async () => {
    const reply = await call(mock.url, 'GET', '/pets?limit=1', { headers: { origin: EVIL } });
    expectNoCors(reply);
    expect(reply.headers.vary).toContain('Origin');
  });

  it.each([
    'http://localhost:5173',
    'https://localhost',
    'http://app.localhost:3000',
    'http://127.0.0.1:8080',
    'http://[::1]:4000',
  ])('lets the page %s on this machine read the API, with credentials', async (page) => {
    const reply = await call(mock.url, 'GET', '/pets?limit=1', { headers: { origin: page } });
    expect(reply.headers['access-control-allow-origin']).toBe(page);
    expect(reply.headers['access-control-allow-credentials']).toBe('true');
  });

  it('refuses a Private Network Access preflight from another site, and grants none a loopback page does not need', async () => {
    expectNoCors(await preflight(mock.url, EVIL));
    const loopback = await preflight(mock.url, 'http://localhost:5173');
    expect(loopback.headers['access-control-allow-origin']).toBe('http://localhost:5173');
    expect(loopback.headers['access-control-allow-private-network']).toBeUndefined();
  });

  it('tells browsers never to read an answer as a script or a style sheet: nosniff on every kind of answer', async () => {
    const answers = [
      await call(mock.url, 'GET', '/pets?limit=1'),
      await call(mock.url, 'GET', '/pets/999999'),
      await call(mock.url, 'GET', '/pets', { auth: null }),
      await call(origin, 'GET', '/__admin/requests', { auth: null }),
    ];
    expect(answers.map((a) => a.status)).toEqual([200, 404, 401, 200]);
    for (const answer of answers) expect(answer.headers['x-content-type-options']).toBe('nosniff');
    // A request Node's parser refuses is answered on the raw socket.
    const refused = await sendRaw(port, 'GET /v1/pets HTTP/1.1\r\nHost: 127.0.0.1\r\nBad Header\r\n\r\n');
    expect(statusLine(refused)).toBe('HTTP/1.1 400 Bad Request');
    expect(refused).toMatch(/\r\nX-Content-Type-Options: nosniff\r\n/);
  });

  it.each([EVIL, 'null'])(
    'refuses a write that a page of %s sends with 403 cross_origin_write, and acts on nothing',
    async (page) => {
      // A <form method=post> needs no preflight: CORS only kept its answer from the page, and the pet was made.
      const count = async () => ((await call(origin, 'GET', '/__admin/pets', { auth: null })).json as unknown[]).length;
      const before = await count();
      const form = await call(mock.url, 'POST', '/pets', {
        body: 'name=Forged&categoryId=1',
        headers: { origin: page, 'content-type': 'application/x-www-form-urlencoded' },
      });
      const json = await call(mock.url, 'POST', '/pets', { body: { name: 'Forged', categoryId: 1 }, headers: { origin: page } });
      for (const reply of [form, json]) {
        expect(reply.status).toBe(403);
        expect(reply.json).toMatchObject({ code: 'cross_origin_write', status: 403 });
        expectNoCors(reply);
      }
      expect(await count()).toBe(before);
      // Reads stay answered (the browser keeps them from the page); loopback pages and clients without Origin write.
      expect((await call(mock.url, 'GET', '/pets/1', { headers: { origin: page } })).status).toBe(200);
      const loopback = { headers: { origin: 'http://localhost:5173' } };
      expect((await call(mock.url, 'POST', '/pets', { body: { name: 'Mine', categoryId: 1 }, ...loopback })).status).toBe(201);
      expect((await call(mock.url, 'POST', '/pets', { body: { name: 'Curl', categoryId: 1 } })).status).toBe(201);
    },
  );

  it('refuses Origin: null at the admin endpoints with 403 and an Error body', async () => {
    const reply = await call(origin, 'POST', '/__admin/reset', { auth: null, headers: { origin: 'null' } });
    expect(reply.status).toBe(403);
    expect(reply.json).toMatchObject({ code: 'admin_cross_origin', status: 403 });
    expectNoCors(reply);
  });

  it.each(['cross-site', 'same-site'])(
    'refuses a GET to the admin endpoints that a page of another site embeds, with no Origin but Sec-Fetch-Site: %s',
    async (site) => {
      // An <img> or <script> of attacker.example pointing at the journal: no CORS request, so no Origin.
      const embedded = { 'sec-fetch-site': site, 'sec-fetch-mode': 'no-cors', 'sec-fetch-dest': 'script' };
      for (const path of ['/__admin/requests', '/__admin/pets', '/__admin/rules']) {
        const reply = await call(origin, 'GET', path, { auth: null, headers: embedded });
        expect(reply.status, path).toBe(403);
        expect(reply.json).toMatchObject({ code: 'admin_cross_origin', status: 403 });
        expectNoCors(reply);
      }
      // A link followed shows the answer to the user alone; the address bar and curl send no such header.
      const navigation = { 'sec-fetch-site': site, 'sec-fetch-mode': 'navigate', 'sec-fetch-dest': 'document' };
      expect((await call(origin, 'GET', '/__admin/health', { auth: null, headers: navigation })).status).toBe(200);
      // A form another site's page posts is a navigation too, and changes the store: refused, whatever Origin says.
      const posted = await call(origin, 'POST', '/__admin/reset', { auth: null, headers: navigation });
      expect(posted.json).toMatchObject({ code: 'admin_cross_origin', status: 403 });
      const typed = { 'sec-fetch-site': 'none', 'sec-fetch-mode': 'navigate' };
      expect((await call(origin, 'GET', '/__admin/requests', { auth: null, headers: typed })).status).toBe(200);
    },
  );

  it('answers the admin endpoints to a client on this machine (the peer check lets loopback through)', async () => {
    expect((await call(origin, 'GET', '/__admin/health', { auth: null })).status).toBe(200);
  });

  it.each(['attacker.example', `attacker.example:${port}`, 'localhost.attacker.example', '10.0.0.8'])(
    'refuses GET /v1/pets addressed to Host %s with 403 and an Error body, before authentication',
    async (host) => {
      const text = await sendRaw(port, `GET /v1/pets HTTP/1.1\r\nHost: ${host}\r\nConnection: close\r\n\r\n`);
      expect(statusLine(text)).toBe('HTTP/1.1 403 Forbidden');
      expect(text).toContain('"code":"host_not_allowed"');
      expect(text).not.toContain('"name"');
    },
  );

  it.each([`localhost:${port}`, 'app.localhost', '127.0.0.2', `[::1]:${port}`, `127.0.0.1:${port}`])(
    'answers GET /v1/pets/1 addressed to the loopback Host %s',
    async (host) => {
      const text = await sendRaw(port, `GET /v1/pets/1 HTTP/1.1\r\nHost: ${host}\r\n${AUTH}Connection: close\r\n\r\n`);
      expect(statusLine(text)).toBe('HTTP/1.1 200 OK');
    },
  );

  it('reads the host of an absolute-form target after its userinfo: http://127.0.0.1:PORT@attacker.example is attacker.example', async () => {
    const text = await sendRaw(
      port,
      `GET http://127.0.0.1:${port}@attacker.example/v1/pets HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\n${AUTH}Connection: close\r\n\r\n`,
    );
    expect(statusLine(text)).toBe('HTTP/1.1 403 Forbidden');
    expect(text).toContain('"code":"host_not_allowed"');
    const admin = await sendRaw(
      port,
      `GET http://127.0.0.1:${port}@attacker.example/__admin/pets HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n`,
    );
    expect(statusLine(admin)).toBe('HTTP/1.1 403 Forbidden');
    expect(admin).not.toContain('"name"');
  });

  it('refuses userinfo in an absolute-form target to the mock itself (RFC 9110 §4.2.4), and never records it', async () => {
    const text = await sendRaw(
      port,
      `GET http://user:hunter2-pw@127.0.0.1:${port}/v1/pets HTTP/1.1\r\nHost: 127.0.0.1\r\n${AUTH}Connection: close\r\n\r\n`,
    );
    expect(statusLine(text)).toBe('HTTP/1.1 400 Bad Request');
    expect(text).toContain('"code":"malformed_request"');
    const journal = (await call(origin, 'GET', '/__admin/requests?limit=1')).text;
    expect(journal).toContain('http://***@127.0.0.1');
    expect(journal).not.toContain('hunter2');
    expect(lines.join('\n')).not.toContain('hunter2');
  });
});

describe('the browser boundary widened with corsOrigins', async () => {
  const mock = await startMock({ corsOrigins: ['http://app.test', 'null'] });
  const origin = new URL(mock.url).origin;

  it('gives a listed origin credentials and Private Network Access', async () => {
    const reply = await preflight(mock.url, 'http://app.test');
    expect(reply.headers['access-control-allow-origin']).toBe('http://app.test');
    expect(reply.headers['access-control-allow-credentials']).toBe('true');
    expect(reply.headers['access-control-allow-private-network']).toBe('true');
  });

  it('lets a listed origin, null among them, write; refuses another', async () => {
    for (const page of ['http://app.test', 'null']) {
      const reply = await call(mock.url, 'POST', '/pets', { body: { name: 'Listed', categoryId: 1 }, headers: { origin: page } });
      expect(reply.status, page).toBe(201);
    }
    const other = await call(mock.url, 'POST', '/pets', { body: { name: 'No', categoryId: 1 }, headers: { origin: EVIL } });
    expect(other.json).toMatchObject({ code: 'cross_origin_write', status: 403 });
  });

  it('answers a listed null as anyone: without credentials or Private Network Access', async () => {
    const reply = await preflight(mock.url, 'null');
    expect(reply.headers['access-control-allow-origin']).toBe('null');
    expect(reply.headers['access-control-allow-credentials']).toBeUndefined();
    expect(reply.headers['access-control-allow-private-network']).toBeUndefined();
  });

  it('still refuses Origin: null at the admin endpoints, and lets the listed origin in', async () => {
    for (const [method, path] of [
      ['GET', '/__admin/requests'],
      ['POST', '/__admin/reset'],
      ['POST', '/__admin/rules'],
    ] as const) {
      const reply = await call(origin, method, path, { auth: null, headers: { origin: 'null' } });
      expect(reply.status).toBe(403);
      expect(reply.json).toMatchObject({ code: 'admin_cross_origin' });
    }
    expect((await call(origin, 'GET', '/__admin/health', { auth: null, headers: { origin: 'http://app.test' } })).status).toBe(
      200,
    );
  });
});

describe("the browser boundary opened with corsOrigins '*'", async () => {
  const mock = await startMock({ corsOrigins: '*' });
  const origin = new URL(mock.url).origin;

  it("lets any page read answers with '*', never with credentials or Private Network Access", async () => {
    const reply = await preflight(mock.url, EVIL);
    expect(reply.headers['access-control-allow-origin']).toBe('*');
    expect(reply.headers['access-control-allow-credentials']).toBeUndefined();
    expect(reply.headers['access-control-allow-private-network']).toBeUndefined();
    const loopback = await call(mock.url, 'GET', '/pets?limit=1', { headers: { origin: 'http://localhost:5173' } });
    expect(loopback.headers['access-control-allow-origin']).toBe('http://localhost:5173');
    expect(loopback.headers['access-control-allow-credentials']).toBe('true');
  });

  it('keeps every other page, null among them, out of the admin endpoints', async () => {
    for (const page of ['null', EVIL]) {
      const reply = await call(origin, 'GET', '/__admin/requests', { auth: null, headers: { origin: page } });
      expect(reply.status).toBe(403);
      expectNoCors(reply);
    }
  });
});

describe('Host names widened with allowedHosts', async () => {
  const mock = await startMock({ allowedHosts: ['example.test', '.dev.test'] });
  const port = Number(new URL(mock.url).port);
  const get = (host: string) => sendRaw(port, `GET /v1/pets/1 HTTP/1.1\r\nHost: ${host}\r\n${AUTH}Connection: close\r\n\r\n`);

  it('answers the names allowed, and subdomains of a .name', async () => {
    for (const host of ['example.test', `EXAMPLE.test:${port}`, 'dev.test', 'api.dev.test']) {
      expect(statusLine(await get(host)), host).toBe('HTTP/1.1 200 OK');
    }
  });

  it('still refuses other names', async () => {
    for (const host of ['api.example.test', 'attacker.example', 'notdev.test']) {
      expect(statusLine(await get(host)), host).toBe('HTTP/1.1 403 Forbidden');
    }
  });
});

describe("Host names opened with allowedHosts 'all'", async () => {
  const mock = await startMock({ allowedHosts: 'all' });
  const port = Number(new URL(mock.url).port);

  it('answers any Host', async () => {
    const text = await sendRaw(port, `GET /v1/pets/1 HTTP/1.1\r\nHost: anything.example\r\n${AUTH}Connection: close\r\n\r\n`);
    expect(statusLine(text)).toBe('HTTP/1.1 200 OK');
  });
});
