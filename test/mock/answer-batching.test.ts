import { describe, expect, it } from 'vitest';
import { call } from '../support/http.js';
import { sendRaw } from '../support/send-raw.js';
import { startMock } from '../support/start-mock.js';

// Answers made in one turn of the event loop are written together at its end (send-answer.ts). Ten requests
// pipelined in one packet are all answered in one turn; two mocks in one process share that turn.
describe('answers written together at the end of a turn', async () => {
  const first = await startMock({ journalSize: 50 });
  const second = await startMock({ journalSize: 50 });
  const auth = 'Authorization: Bearer petstore-dev-key\r\n';
  const pipelined = (limits: number[]) =>
    limits
      .map((limit, i) => `GET /v1/pets?limit=${limit} HTTP/1.1\r\nHost: 127.0.0.1\r\n${auth}${i === limits.length - 1 ? 'Connection: close\r\n' : ''}\r\n`)
      .join('');
  const bodiesOf = (raw: string) => raw.split('HTTP/1.1 ').slice(1).map((answer) => JSON.parse(answer.slice(answer.indexOf('\r\n\r\n') + 4)) as unknown[]);
  const journaled = async (url: string) =>
    ((await call(new URL(url).origin, 'GET', '/__admin/requests')).json as unknown as { query: string }[]).map((e) => e.query);

  it('gives each pipelined request its own answer, in order, and each mock only its own requests', async () => {
    const ownLimits = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10];
    const otherLimits = [11, 12, 13, 14, 15, 16, 17, 18, 19, 20];
    const [own, other] = await Promise.all([
      sendRaw(Number(new URL(first.url).port), pipelined(ownLimits)),
      sendRaw(Number(new URL(second.url).port), pipelined(otherLimits)),
    ]);
    expect(bodiesOf(own).map((pets) => pets.length)).toEqual(ownLimits);
    expect(bodiesOf(other).map((pets) => pets.length)).toEqual(otherLimits);
    expect(await journaled(first.url)).toEqual(ownLimits.map((limit) => `limit=${limit}`).reverse());
    expect(await journaled(second.url)).toEqual(otherLimits.map((limit) => `limit=${limit}`).reverse());
  });
});
