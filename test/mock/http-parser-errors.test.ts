import { connect } from 'node:net';
import { describe, expect, it } from 'vitest';
import { call } from '../support/http.js';
import { sendRaw } from '../support/send-raw.js';
import { startMock } from '../support/start-mock.js';

interface RawAnswer {
  readonly statusLine: string;
  readonly headers: Record<string, string>;
  readonly body: string;
}

/** Sends bytes as they are and splits the answer the mock gives before it closes the connection. */
async function sendRawAnswer(port: number, bytes: string): Promise<RawAnswer> {
  const text = await sendRaw(port, bytes);
  const [head = '', body = ''] = text.split('\r\n\r\n');
  const [statusLine = '', ...lines] = head.split('\r\n');
  const headers = Object.fromEntries(
    lines.map((line) => [line.slice(0, line.indexOf(':')).toLowerCase(), line.slice(line.indexOf(':') + 1).trim()]),
  );
  return { statusLine, headers, body };
}

const AUTH = 'Authorization: Bearer petstore-dev-key\r\n';

describe("Node's HTTP parser errors", async () => {
  const lines: string[] = [];
  const mock = await startMock({ headersTimeoutMs: 300, requestTimeoutMs: 600, log: (line) => lines.push(line) });
  const port = Number(new URL(mock.url).port);

  it.each([
    ['a request line that is not HTTP', 'GARBAGE\r\n\r\n', 'Invalid method'],
    ['an unknown method', 'BREW /v1/pets HTTP/1.1\r\nHost: x\r\n\r\n', 'Invalid method'],
    ['Content-Length: abc', `POST /v1/pets HTTP/1.1\r\nHost: x\r\n${AUTH}Content-Length: abc\r\n\r\n`, 'Content-Length'],
    [
      'Content-Length with Transfer-Encoding',
      `POST /v1/pets HTTP/1.1\r\nHost: x\r\n${AUTH}Content-Length: 3\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n`,
      "Transfer-Encoding can't be present with Content-Length",
    ],
    [
      'a bad chunk size',
      `POST /v1/pets HTTP/1.1\r\nHost: x\r\n${AUTH}Content-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n{}\r\n0\r\n\r\n`,
      'chunk size',
    ],
    ['an HTTP version that does not exist', 'GET /v1/pets HTTP/9.9\r\n\r\n', 'HTTP version'],
  ])('answers %s with 400 malformed_request, a JSON Error body and Connection: close', async (_, bytes, reason) => {
    const answer = await sendRawAnswer(port, bytes);
    expect(answer.statusLine).toBe('HTTP/1.1 400 Bad Request');
    expect(answer.headers['content-type']).toBe('application/json');
    expect(answer.headers.connection).toBe('close');
    expect(Number(answer.headers['content-length'])).toBe(Buffer.byteLength(answer.body));
    const error = JSON.parse(answer.body);
    expect(error).toMatchObject({ code: 'malformed_request', status: 400 });
    expect(error.message).toContain('the request is not valid HTTP/1.1');
    expect(error.message).toContain(reason);
  });

  it.each([
    ['an HTTP/2.0 request line', `GET /v1/pets HTTP/2.0\r\nHost: x\r\n${AUTH}\r\n`, 'HTTP/2.0 is not served'],
    ['an HTTP/0.9 request line', `GET /v1/pets HTTP/0.9\r\nHost: x\r\n${AUTH}\r\n`, 'HTTP/0.9 is not served'],
    [
      "an HTTP/2 client's connection preface",
      'PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n\u0000\u0000\u0000\u0004\u0000\u0000\u0000\u0000\u0000',
      'connection preface of HTTP/2',
    ],
  ])('answers %s with 505 http_version_not_supported, not as HTTP/1.1, and closes the connection', async (_, bytes, reason) => {
    const answer = await sendRawAnswer(port, bytes);
    expect(answer.statusLine).toBe('HTTP/1.1 505 HTTP Version Not Supported');
    expect(answer.headers.connection).toBe('close');
    const error = JSON.parse(answer.body);
    expect(error).toMatchObject({ code: 'http_version_not_supported', status: 505 });
    expect(error.message).toContain(reason);
  });

  it('answers a body cut short by the client ending its side with 400 request_incomplete, logged with its code', async () => {
    const text = await new Promise<string>((resolve, reject) => {
      const socket = connect(port, '127.0.0.1', () => {
        socket.end(
          `POST /v1/pets HTTP/1.1\r\nHost: 127.0.0.1\r\n${AUTH}Content-Type: application/json\r\nContent-Length: 100\r\n\r\n{"name":`,
        );
      });
      let received = '';
      socket.on('data', (chunk) => {
        received += chunk;
      });
      socket.on('error', reject);
      socket.on('close', () => resolve(received));
    });
    expect(text).toMatch(/^HTTP\/1\.1 400 /);
    expect(JSON.parse(text.slice(text.indexOf('\r\n\r\n') + 4))).toMatchObject({ code: 'request_incomplete', status: 400 });
    expect(lines.filter((line) => line.startsWith('POST /v1/pets ')).at(-1)).toMatch(
      /^POST \/v1\/pets 400 request_incomplete [\d.]+ms$/,
    );
  });

  it('answers headers over 16 KiB with 431 headers_too_large', async () => {
    const answer = await sendRawAnswer(port, `GET /v1/pets HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20 * 1024)}\r\n\r\n`);
    expect(answer.statusLine).toBe('HTTP/1.1 431 Request Header Fields Too Large');
    expect(JSON.parse(answer.body)).toMatchObject({ code: 'headers_too_large', status: 431 });
  });

  it('answers headers that never finish with 408 request_timeout', async () => {
    const answer = await sendRawAnswer(port, 'GET /v1/pets HTTP/1.1\r\nHost: x\r\n');
    expect(answer.statusLine).toBe('HTTP/1.1 408 Request Timeout');
    const error = JSON.parse(answer.body);
    expect(error).toMatchObject({ code: 'request_timeout', status: 408 });
    expect(error.message).toContain('within 300 ms');
  });

  it('answers a body that never finishes with 408, logged as its request', async () => {
    const answer = await sendRawAnswer(
      port,
      `POST /v1/pets HTTP/1.1\r\nHost: 127.0.0.1\r\n${AUTH}Content-Type: application/json\r\nContent-Length: 100\r\n\r\n{"name":`,
    );
    expect(answer.statusLine).toBe('HTTP/1.1 408 Request Timeout');
    expect(JSON.parse(answer.body)).toMatchObject({ code: 'request_timeout', status: 408 });
    expect(lines.filter((line) => line.startsWith('POST /v1/pets 408'))).toHaveLength(1);
  });

  it('logs one line for each refused request, without the bytes it received', async () => {
    const before = lines.length;
    await sendRawAnswer(port, `GARBAGE ${AUTH}\r\n\r\n`);
    expect(lines.slice(before)).toEqual(['(unparsed request) 400 HPE_INVALID_METHOD']);
  });

  it('keeps serving after all of them', async () => {
    expect((await call(mock.url, 'GET', '/pets?limit=1')).status).toBe(200);
  });
});
