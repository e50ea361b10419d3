import { connect, type Socket } from 'node:net';
import { DEV_API_KEY } from '../../src/mock/mock-options.js';
import { describe, expect, it } from 'vitest';
import { call } from '../support/http.js';
import { sendRaw } from '../support/send-raw.js';
import { startMock } from '../support/start-mock.js';

const AUTH = 'Authorization: Bearer petstore-dev-key\r\n';

function statusLines(text: string): string[] {
  return [...text.matchAll(/HTTP\/1\.1 \d{3} [^\r]*/g)].map((match) => match[0]);
}

describe('inputs that used to take the mock down or past its checks', async () => {
  const mock = await startMock();
  const origin = new URL(mock.url).origin;
  const port = Number(new URL(mock.url).port);

  it('refuses two Authorization headers with 401 repeated_authorization, whichever comes first', async () => {
    for (const [first, second] of [
      [`Bearer ${DEV_API_KEY}`, 'Bearer wrong'],
      ['Bearer wrong', `Bearer ${DEV_API_KEY}`],
    ]) {
      const text = await sendRaw(
        port,
        `GET /v1/pets HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: ${first}\r\nauthorization: ${second}\r\nConnection: close\r\n\r\n`,
      );
      expect(text).toMatch(/^HTTP\/1\.1 401 /);
      expect(text).toContain('"code":"repeated_authorization"');
      expect(text).not.toContain(DEV_API_KEY);
    }
  });

  it('reads every query parameter: one past the 1000th is still validated', async () => {
    const padding = Array.from({ length: 1000 }, (_, i) => `p${i}=1`).join('&');
    const reply = await call(mock.url, 'GET', `/pets?${padding}&status=bogus`);
    expect(reply.status).toBe(400);
    expect(reply.json).toMatchObject({ code: 'invalid_parameter' });
    expect((reply.json as { message: string }).message).toContain('query.status');
  });

  it('answers every earlier pipelined request before the malformed one that follows it', async () => {
    const body = '{"name":"Piped","categoryId":1}';
    const create = `POST /v1/pets HTTP/1.1\r\nHost: 127.0.0.1\r\n${AUTH}Content-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n${body}`;
    const get = `GET /v1/pets/1 HTTP/1.1\r\nHost: 127.0.0.1\r\n${AUTH}\r\n`;
    const text = await sendRaw(port, `${create}${get}${create}GARBAGE\r\n\r\n`);
    expect(statusLines(text)).toEqual([
      'HTTP/1.1 201 Created',
      'HTTP/1.1 200 OK',
      'HTTP/1.1 201 Created',
      'HTTP/1.1 400 Bad Request',
    ]);
    expect(text).toContain('"code":"malformed_request"');
  });

  it.each([
    ['a rebinding name', 'evil.example'],
    ['a rebinding name with the port', 'evil.example:4010'],
    ['an address of another machine', '10.0.0.8'],
  ])('refuses the admin endpoints to %s in Host with 403 host_not_allowed, as every path', async (_, host) => {
    const text = await sendRaw(port, `GET /__admin/pets HTTP/1.1\r\nHost: ${host}\r\nConnection: close\r\n\r\n`);
    expect(statusLines(text)).toEqual(['HTTP/1.1 403 Forbidden']);
    expect(text).toContain('"code":"host_not_allowed"');
    expect(text).not.toContain('"name"');
  });

  it.each(['127.0.0.1', `127.0.0.1:${port}`, `localhost:${port}`, 'LOCALHOST', `[::1]:${port}`])(
    'answers the admin endpoints addressed to %s',
    async (host) => {
      const text = await sendRaw(port, `GET /__admin/health HTTP/1.1\r\nHost: ${host}\r\nConnection: close\r\n\r\n`);
      expect(statusLines(text)).toEqual(['HTTP/1.1 200 OK']);
    },
  );

  it.each(['127.0.0.1:abc', `127.0.0.1:${port}, evil.example`, '127.0.0.1/x', 'a b'])(
    'refuses Host: %s, which is not a host and a port, with 400 malformed_request (RFC 9112 §3.2)',
    async (host) => {
      const text = await sendRaw(port, `GET /__admin/health HTTP/1.1\r\nHost: ${host}\r\nConnection: close\r\n\r\n`);
      expect(statusLines(text)).toEqual(['HTTP/1.1 400 Bad Request']);
      expect(text).toContain('"code":"malformed_request"');
    },
  );

  it('refuses a request with two Host headers (RFC 9112 §3.2), so a second one cannot slip past the admin check', async () => {
    const text = await sendRaw(
      port,
      `GET /__admin/pets HTTP/1.1\r\nHost: 127.0.0.1\r\nHost: evil.example\r\nConnection: close\r\n\r\n`,
    );
    expect(statusLines(text)).toEqual(['HTTP/1.1 400 Bad Request']);
    expect(text).toContain('"code":"malformed_request"');
    expect(text).not.toContain('"name"');
  });

  it('refuses the API, not only the admin endpoints, to a Host that is not the mock’s (DNS rebinding), before anything else', async () => {
    const text = await sendRaw(port, `GET /v1/pets/1 HTTP/1.1\r\nHost: api.example\r\n${AUTH}Connection: close\r\n\r\n`);
    expect(statusLines(text)).toEqual(['HTTP/1.1 403 Forbidden']);
    expect(text).toContain('"code":"host_not_allowed"');
    expect(text).toContain('--allowed-host');
    expect(text).not.toContain('"name"');
    expect((await call(origin, 'GET', '/__admin/health')).status).toBe(200);
  });
});

describe('connections on which nothing moves', async () => {
  const mock = await startMock({ idleTimeoutMs: 300 });
  const port = Number(new URL(mock.url).port);

  // Node keeps an idle socket for ever by default: a fault=hang, or a client that stops reading a large answer,
  // held its connection until the mock stopped, and enough of them took every file descriptor.
  it('closes a connection idle past idleTimeoutMs, a fault=hang among them, and keeps serving', async () => {
    const text = await sendRaw(port, `GET /v1/pets HTTP/1.1\r\nHost: 127.0.0.1\r\n${AUTH}Prefer: fault=hang\r\n\r\n`);
    expect(text).toBe('');
    expect((await call(mock.url, 'GET', '/pets/1')).status).toBe(200);
  });
});

describe('a client that opens connection after connection', async () => {
  const mock = await startMock({ maxConnectionsPerClient: 3 });
  const port = Number(new URL(mock.url).port);
  const open = () =>
    new Promise<Socket>((resolve, reject) => {
      const socket = connect(port, '127.0.0.1', () => resolve(socket));
      socket.once('error', reject);
    });
  const closedByPeer = (socket: Socket) =>
    new Promise<boolean>((resolve) => {
      socket.once('close', () => resolve(true));
      setTimeout(() => resolve(false), 500).unref();
    });

  it('gets at most maxConnectionsPerClient at once: one more is closed at once, and one is free again once another ends', async () => {
    const held = [await open(), await open(), await open()];
    const extra = await open();
    expect(await closedByPeer(extra)).toBe(true);
    // The connections it holds are still served.
    const answer = await new Promise<string>((resolve) => {
      let text = '';
      const socket = held[0] as Socket;
      socket.on('data', (chunk) => {
        text += chunk;
        if (text.includes('\r\n\r\n')) resolve(text);
      });
      socket.write(`GET /v1/pets/1 HTTP/1.1\r\nHost: 127.0.0.1\r\n${AUTH}\r\n`);
    });
    expect(answer).toMatch(/^HTTP\/1\.1 200 /);
    (held.pop() as Socket).destroy();
    await new Promise((resolve) => setTimeout(resolve, 50));
    const again = await open();
    expect(await closedByPeer(again)).toBe(false);
    for (const socket of [...held, again]) socket.destroy();
  });
});
