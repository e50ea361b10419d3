import { describe, expect, it } from 'vitest';
import { sendRaw } from '../support/send-raw.js';
import { startMock } from '../support/start-mock.js';

interface RawAnswer {
  readonly statusLine: string;
  readonly headers: Record<string, string>;
  readonly json: { code?: string; status?: number; message?: string } | undefined;
}

/** Sends bytes as they are on one connection and reads the one answer the mock gives before it closes it. */
async function send(port: number, bytes: string): Promise<RawAnswer> {
  const text = await sendRaw(port, bytes);
  const split = text.indexOf('\r\n\r\n');
  const [statusLine = '', ...lines] = text.slice(0, split).split('\r\n');
  const headers = Object.fromEntries(
    lines.map((line) => [line.slice(0, line.indexOf(':')).toLowerCase(), line.slice(line.indexOf(':') + 1).trim()]),
  );
  const body = text.slice(split + 4);
  return { statusLine, headers, json: body === '' ? undefined : JSON.parse(body) };
}

const AUTH = 'Authorization: Bearer petstore-dev-key\r\n';

describe('request targets and request lines Node would answer bare', async () => {
  const lines: string[] = [];
  const mock = await startMock({ log: (line) => lines.push(line) });
  const port = Number(new URL(mock.url).port);

  it('answers an HTTP/1.1 request without Host with 400 and an Error body (RFC 9112 §3.2)', async () => {
    const answer = await send(port, `GET /v1/pets HTTP/1.1\r\n${AUTH}Connection: close\r\n\r\n`);
    expect(answer.statusLine).toBe('HTTP/1.1 400 Bad Request');
    expect(answer.headers['content-type']).toBe('application/json');
    expect(answer.json).toMatchObject({ code: 'malformed_request', status: 400 });
    expect(answer.json?.message).toContain('no Host header');
  });

  it('still answers an HTTP/1.0 request without Host (HTTP/1.0 has no Host requirement)', async () => {
    const answer = await send(port, `GET /v1/pets/1 HTTP/1.0\r\n${AUTH}\r\n`);
    expect(answer.statusLine).toBe('HTTP/1.1 200 OK');
    expect(answer.json).toMatchObject({ id: 1 });
  });

  it('answers an Expect it does not know with 417, an Error body, and closes (RFC 9110 §10.1.1)', async () => {
    const answer = await send(
      port,
      `POST /v1/pets HTTP/1.1\r\nHost: 127.0.0.1\r\n${AUTH}Content-Type: application/json\r\nContent-Length: 28\r\nExpect: 999-x\r\n\r\n`,
    );
    expect(answer.statusLine).toBe('HTTP/1.1 417 Expectation Failed');
    expect(answer.headers.connection).toBe('close');
    expect(answer.json).toMatchObject({ code: 'expectation_failed', status: 417 });
    expect(answer.json?.message).toContain('999-x');
    expect(lines.at(-1)).toMatch(/^POST \/v1\/pets 417 expectation_failed /);
  });

  it('still meets Expect: 100-continue', async () => {
    const body = '{"name":"Patient","categoryId":1}';
    const text = await sendRaw(
      port,
      `POST /v1/pets HTTP/1.1\r\nHost: 127.0.0.1\r\n${AUTH}Content-Type: application/json\r\nContent-Length: ${body.length}\r\nExpect: 100-continue\r\nConnection: close\r\n\r\n${body}`,
    );
    expect(text).toContain('HTTP/1.1 100 Continue');
    expect(text).toContain('HTTP/1.1 201 Created');
  });

  it.each([
    ['another Host', 'Host: attacker.example', AUTH, 1000, '403 Forbidden', 'host_not_allowed'],
    ['no key', 'Host: 127.0.0.1', '', 1000, '401 Unauthorized', 'missing_authorization'],
    ['a body past the cap', 'Host: 127.0.0.1', AUTH, 50_000_000, '413 Payload Too Large', 'payload_too_large'],
  ])(
    'refuses a request with Expect: 100-continue and %s before its body is sent: no 100 Continue, then closes',
    async (_, host, auth, length, status, code) => {
      // Only the headers: the client holds its body back for the 100 Continue (Node sent it before any check).
      const answer = await send(
        port,
        `POST /v1/pets HTTP/1.1\r\n${host}\r\n${auth}Content-Type: application/json\r\nContent-Length: ${length}\r\nExpect: 100-continue\r\n\r\n`,
      );
      expect(answer.statusLine).toBe(`HTTP/1.1 ${status}`);
      expect(answer.headers.connection).toBe('close');
      expect(answer.json).toMatchObject({ code });
    },
  );

  it('answers CONNECT with 405, Allow and an Error body, then closes: the mock is not a proxy', async () => {
    const answer = await send(port, `CONNECT 127.0.0.1:${port} HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\n\r\n`);
    expect(answer.statusLine).toBe('HTTP/1.1 405 Method Not Allowed');
    expect(answer.headers.allow).toBe('GET, HEAD, POST, OPTIONS');
    expect(answer.headers.connection).toBe('close');
    expect(Number(answer.headers['content-length'])).toBeGreaterThan(0);
    expect(answer.json).toMatchObject({ code: 'method_not_allowed', status: 405 });
    expect(answer.json?.message).toContain('not a proxy');
    expect(lines.at(-1)).toMatch(new RegExp(`^CONNECT 127.0.0.1:${port} 405 method_not_allowed `));
  });

  it('serves an absolute-form target as the path it names (RFC 9112 §3.2.2)', async () => {
    const answer = await send(
      port,
      `GET http://127.0.0.1:${port}/v1/pets/2?x=1 HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\n${AUTH}Connection: close\r\n\r\n`,
    );
    expect(answer.statusLine).toBe('HTTP/1.1 200 OK');
    expect(answer.json).toMatchObject({ id: 2 });
    const list = await send(
      port,
      `GET HTTP://127.0.0.1:${port}/v1/pets?limit=1 HTTP/1.1\r\nHost: x\r\n${AUTH}Connection: close\r\n\r\n`,
    );
    expect(list.statusLine).toBe('HTTP/1.1 200 OK');
    expect(Array.isArray(list.json) && list.json.length).toBe(1);
  });

  it('checks the admin endpoints against the authority of an absolute-form target, which stands in for Host', async () => {
    const evil = await send(
      port,
      `GET http://evil.example/__admin/health HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n`,
    );
    expect(evil.statusLine).toBe('HTTP/1.1 403 Forbidden');
    expect(evil.json).toMatchObject({ code: 'host_not_allowed' });
    const own = await send(
      port,
      `GET http://localhost:${port}/__admin/health HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n`,
    );
    expect(own.statusLine).toBe('HTTP/1.1 200 OK');
  });
});
