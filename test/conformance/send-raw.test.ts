import { createServer as createHttpsServer } from 'node:https';
import { type AddressInfo, createServer, type Server, type Socket } from 'node:net';
import { afterAll, describe, expect, it } from 'vitest';
import { sendRaw } from '../../src/conformance/http/send-raw.js';
import { selfSigned } from '../support/test-certificates.js';

const servers: Server[] = [];
afterAll(() => Promise.all(servers.map((server) => new Promise((resolve) => server.close(resolve)))));

/** A TCP server on 127.0.0.1 that answers each request's first bytes with `answer`; `received` holds what came. */
async function target(answer: (socket: Socket) => void): Promise<{ url: string; received: () => string }> {
  let received = '';
  const server = createServer((socket) => {
    socket.once('data', (chunk) => {
      received += chunk.toString('latin1');
      answer(socket);
    });
    socket.on('error', () => {});
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1/pets?limit=1`, received: () => received };
}

const LIMITS = { timeoutMs: 5000, maxResponseBytes: 1024 * 1024 };
const send = (url: string, method = 'HEAD') =>
  sendRaw({ method, url, headers: { accept: 'application/json', authorization: 'Bearer k' }, body: undefined }, LIMITS, {
    rejectUnauthorized: true,
  });

describe('a request sent raw, on a socket of its own', () => {
  it('asks the target to close after the answer and sends the request as built', async () => {
    const server = await target((socket) => socket.end('HTTP/1.1 200 OK\r\ncontent-type: application/json\r\n\r\n'));
    const answer = await send(server.url);
    expect(server.received()).toMatch(/^HEAD \/v1\/pets\?limit=1 HTTP\/1\.1\r\nhost: 127\.0\.0\.1:\d+\r\n/);
    expect(server.received()).toContain('\r\nauthorization: Bearer k\r\nconnection: close\r\n\r\n');
    expect(answer).toMatchObject({ status: 200, headers: { 'content-type': 'application/json' }, text: '' });
    expect(answer).toMatchObject({ afterHead: { strayBytes: 0 } });
  });

  it('counts the bytes after a 304 and passes over an interim 103', async () => {
    const server = await target((socket) =>
      socket.end('HTTP/1.1 103 Early Hints\r\nlink: </a>\r\n\r\nHTTP/1.1 304 Not Modified\r\n\r\njunk'),
    );
    expect(await send(server.url, 'GET')).toMatchObject({ status: 304, afterHead: { strayBytes: 4, strayStart: 'junk' } });
  });

  it('takes a 204 as ended when a target that keeps the connection open falls silent', async () => {
    const server = await target((socket) => socket.write('HTTP/1.1 204 No Content\r\n\r\n'));
    expect(await send(server.url, 'DELETE')).toMatchObject({ status: 204, afterHead: { strayBytes: 0 } });
  });

  it('reads a body as far as its Content-Length, and says an answer with content has no end to look past', async () => {
    const server = await target((socket) => socket.write('HTTP/1.1 200 OK\r\ncontent-length: 5\r\n\r\nhello'));
    const answer = await send(server.url, 'OPTIONS');
    expect(answer).toMatchObject({ status: 200, text: 'hello' });
    expect(answer).toMatchObject({
      afterHead: { unread: expect.stringMatching(/^the answer was 200, which may carry content/) },
    });
  });

  it('fails an answer that is not HTTP, and a connection closed without an answer (with no code: the target is there)', async () => {
    const notHttp = await target((socket) => socket.end('SSH-2.0-OpenSSH_9.6\r\n\r\n'));
    expect(await send(notHttp.url)).toMatchObject({ kind: 'connection', code: 'HPE_INVALID_CONSTANT' });
    const dropped = await target((socket) => socket.destroy());
    const failure = await send(dropped.url);
    expect(failure).toMatchObject({ kind: 'connection' });
    expect(failure).not.toHaveProperty('code');
  });

  it('reaches an HTTPS target the run trusts (--ca), and fails one it does not with the TLS code', async () => {
    const identity = await selfSigned();
    const server = createHttpsServer(identity, (req, res) => res.writeHead(req.method === 'HEAD' ? 200 : 500).end());
    servers.push(server);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const url = `https://127.0.0.1:${(server.address() as AddressInfo).port}/v1/pets`;
    const head = { method: 'HEAD', url, headers: {}, body: undefined };
    expect(await sendRaw(head, LIMITS, { rejectUnauthorized: true, ca: [identity.cert] })).toMatchObject({
      status: 200,
      afterHead: { strayBytes: 0 },
    });
    expect(await sendRaw(head, LIMITS, { rejectUnauthorized: true })).toMatchObject({
      kind: 'connection',
      code: 'DEPTH_ZERO_SELF_SIGNED_CERT',
    });
  });

  it('refuses a header HTTP/1.1 cannot carry before connecting', () => {
    expect(() =>
      sendRaw({ method: 'HEAD', url: 'http://127.0.0.1:9/', headers: { 'x-a': 'b\r\nx-b: c' }, body: undefined }, LIMITS, {
        rejectUnauthorized: true,
      }),
    ).toThrow(/x-a holds what HTTP\/1\.1 cannot carry/);
  });
});
