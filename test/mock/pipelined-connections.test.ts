import { connect } from 'node:net';
import { describe, expect, it } from 'vitest';
import { call } from '../support/http.js';
import { sendRaw } from '../support/send-raw.js';
import { startMock } from '../support/start-mock.js';

const AUTH = 'Authorization: Bearer petstore-dev-key\r\n';

/** Writes the bytes, then ends the client's side (a FIN) at once; everything read until the server closes. */
function sendAndEnd(port: number, bytes: string): Promise<string> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1', () => socket.end(bytes));
    let text = '';
    socket.on('data', (chunk) => {
      text += chunk;
    });
    // A reset (fault=reset) ends it too: what arrived before is the answer.
    socket.on('error', () => resolve(text));
    socket.on('close', () => resolve(text));
  });
}

// An answer follows the body before it directly: no line start to anchor on.
const statusLines = (raw: string) => raw.match(/HTTP\/1\.1 \d{3}(?= )/g) ?? [];

// Answers made in one turn of the event loop are written together at its end (send-answer.ts): requests pipelined
// in one packet are answered in one turn, and whatever ends the connection must not lose the answers before it.
describe('pipelined requests and connections that end', async () => {
  const lines: string[] = [];
  const first = await startMock({ journalSize: 500, log: (line) => lines.push(line) });
  const second = await startMock({ journalSize: 50 });
  const port = Number(new URL(first.url).port);
  const getPet = (extra = '') => `GET /v1/pets/1 HTTP/1.1\r\nHost: 127.0.0.1\r\n${AUTH}${extra}\r\n`;
  const create = (name: string) => {
    const body = JSON.stringify({ name, categoryId: 1 });
    return `POST /v1/pets HTTP/1.1\r\nHost: 127.0.0.1\r\n${AUTH}Content-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n${body}`;
  };
  const journaled = async (url: string) =>
    (await call(new URL(url).origin, 'GET', '/__admin/requests')).json as unknown as {
      method: string;
      query: string;
      status: number | null;
    }[];
  const storedNames = async () =>
    ((await call(new URL(first.url).origin, 'GET', '/__admin/pets')).json as unknown as { name: string }[]).map((p) => p.name);

  it('gives each pipelined request its own answer, in order, and each of two mocks in one process only its own', async () => {
    const pipelined = (limits: number[]) =>
      limits
        .map(
          (limit, i) =>
            `GET /v1/pets?limit=${limit} HTTP/1.1\r\nHost: 127.0.0.1\r\n${AUTH}${i === limits.length - 1 ? 'Connection: close\r\n' : ''}\r\n`,
        )
        .join('');
    const bodiesOf = (raw: string) =>
      raw
        .split('HTTP/1.1 ')
        .slice(1)
        .map((answer) => JSON.parse(answer.slice(answer.indexOf('\r\n\r\n') + 4)) as unknown[]);
    const ownLimits = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10];
    const otherLimits = [11, 12, 13, 14, 15, 16, 17, 18, 19, 20];
    await call(new URL(first.url).origin, 'DELETE', '/__admin/requests');
    const [own, other] = await Promise.all([
      sendRaw(port, pipelined(ownLimits)),
      sendRaw(Number(new URL(second.url).port), pipelined(otherLimits)),
    ]);
    expect(bodiesOf(own).map((pets) => pets.length)).toEqual(ownLimits);
    expect(bodiesOf(other).map((pets) => pets.length)).toEqual(otherLimits);
    expect((await journaled(first.url)).map((e) => e.query)).toEqual(ownLimits.map((limit) => `limit=${limit}`).reverse());
    expect((await journaled(second.url)).map((e) => e.query)).toEqual(otherLimits.map((limit) => `limit=${limit}`).reverse());
  });

  it('answers every request of a client that ends its side right after them, a 64 KiB read and its FIN at once', async () => {
    // 64 KiB is what Node reads at a time: the FIN then comes in the same read as the last requests.
    let bytes = '';
    let count = 0;
    while (65_536 - bytes.length >= getPet('X-Pad: \r\n').length + 300) {
      bytes += getPet(`X-Pad: ${'p'.repeat(100)}\r\n`);
      count++;
    }
    bytes += getPet(`X-Pad: ${'p'.repeat(65_536 - bytes.length - getPet('X-Pad: \r\n').length)}\r\n`);
    count++;
    expect(bytes.length).toBe(65_536);
    expect(statusLines(await sendAndEnd(port, bytes))).toEqual(Array(count).fill('HTTP/1.1 200'));
  });

  it('answers a request pipelined before a CONNECT first, then refuses the CONNECT', async () => {
    const raw = await sendRaw(port, `${getPet()}CONNECT example.com:443 HTTP/1.1\r\nHost: example.com:443\r\n\r\n`);
    expect(statusLines(raw)).toEqual(['HTTP/1.1 200', 'HTTP/1.1 405']);
  });

  it.each([
    ['Prefer: fault=empty', getPet('Prefer: fault=empty\r\n')],
    ['Prefer: fault=reset', getPet('Prefer: fault=reset\r\n')],
    ['Expect: 999-x (417)', getPet('Expect: 999-x\r\n')],
    ['an HTTP/2.0 request line (505)', getPet().replace('HTTP/1.1', 'HTTP/2.0')],
    [
      'a body over the limit (413)',
      `POST /v1/pets HTTP/1.1\r\nHost: 127.0.0.1\r\n${AUTH}Content-Type: application/json\r\nContent-Length: 1048577\r\n\r\n${'x'.repeat(1_048_577)}`,
    ],
  ])('does not act on a create pipelined behind %s, which ends the connection (RFC 9112 §9.6)', async (_, closing) => {
    const name = `behind a closing answer ${Math.random()}`;
    await call(new URL(first.url).origin, 'DELETE', '/__admin/requests');
    await sendAndEnd(port, `${getPet()}${closing}${create(name)}`);
    // A fault on a pipelined request waits 50 ms after the answers before it; records come after the answers.
    await new Promise((resolve) => setTimeout(resolve, 150));
    expect(await storedNames()).not.toContain(name);
    // Recorded as sent nothing, or not read at all: never as a 201 the client did not get.
    expect((await journaled(first.url)).filter((e) => e.method === 'POST').map((e) => e.status)).not.toContain(201);
  });

  it('neither answers nor logs what follows a request sent with Connection: close', async () => {
    lines.length = 0;
    const raw = await sendRaw(port, `${getPet('Connection: close\r\n')}${getPet()}`);
    expect(statusLines(raw)).toEqual(['HTTP/1.1 200']);
    expect(lines).toEqual([expect.stringMatching(/^GET \/v1\/pets\/1 200 [\d.]+ms$/)]);
  });
});
