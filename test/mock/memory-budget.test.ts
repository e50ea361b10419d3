import { connect, type Socket } from 'node:net';
import { request } from 'undici';
import { describe, expect, it } from 'vitest';
import { call } from '../support/http.js';
import { spawnBin } from '../support/spawn-bin.js';
import { startMock } from '../support/start-mock.js';

const AUTH = 'Authorization: Bearer petstore-dev-key\r\n';

describe('the store’s memory budget', async () => {
  const mock = await startMock({ fixtures: false, maxStoreBytes: 300_000 });
  const bigName = 'n'.repeat(20_000);

  it('refuses a create past --max-store-bytes with 409 store_full, keeping every pet it has', async () => {
    const ids: number[] = [];
    let refused: Awaited<ReturnType<typeof call>> | undefined;
    for (let i = 0; i < 20 && !refused; i++) {
      const reply = await call(mock.url, 'POST', '/pets', { body: { name: bigName, categoryId: i } });
      if (reply.status === 201) ids.push((reply.json as { id: number }).id);
      else refused = reply;
    }
    expect(refused?.status).toBe(409);
    expect(refused?.json).toMatchObject({ code: 'store_full', status: 409 });
    expect(refused?.text).toContain('budget of 300000 bytes');
    expect(ids.length).toBeGreaterThan(2);
    expect(mock.store.bytes).toBeLessThanOrEqual(300_000);
    for (const id of ids) expect((await call(mock.url, 'GET', `/pets/${id}`)).status).toBe(200);
    // Small pets still fit in what is left, and a reset gives the budget back.
    expect((await call(mock.url, 'POST', '/pets', { body: { name: 'small', categoryId: 1 } })).status).toBe(201);
    await call(new URL(mock.url).origin, 'POST', '/__admin/reset');
    expect((await call(mock.url, 'POST', '/pets', { body: { name: bigName, categoryId: 1 } })).status).toBe(201);
  });
});

describe('petstore-mock under a small heap', () => {
  it('refuses 1 MB names with store_full long before it runs out of memory (default budget: half the heap)', async () => {
    const mock = spawnBin('petstore-mock', ['--port', '0', '--quiet'], { NODE_OPTIONS: '--max-old-space-size=96' });
    const [, url] = await mock.waitFor(/^PETSTORE_MOCK_URL=(\S+)$/m);
    const name = 'x'.repeat(1_000_000);
    let status = 201;
    for (let i = 0; i < 121 && status === 201; i++) {
      status = (await call(url as string, 'POST', '/pets', { body: { name, categoryId: 1 } })).status;
    }
    expect(status).toBe(409);
    expect((await call(url as string, 'GET', '/pets?limit=1')).status).toBe(200);
    mock.child.kill('SIGTERM');
    expect((await mock.exited).code).toBe(0);
  });
});

describe('large answers', async () => {
  const mock = await startMock({ fixtures: false });
  const origin = new URL(mock.url).origin;
  const name = 'p'.repeat(200_000);
  for (let i = 0; i < 100; i++) mock.store.create({ name, categoryId: i });

  it('streams a list past 64 KiB, newest first, and the admin dump, as valid JSON', async () => {
    const list = await request(`${mock.url}/pets?limit=100`, { headers: { authorization: 'Bearer petstore-dev-key' } });
    expect(list.headers['transfer-encoding']).toBe('chunked');
    const pets = (await list.body.json()) as { categoryId: number }[];
    expect(pets.map((p) => p.categoryId)).toEqual(Array.from({ length: 100 }, (_, i) => 99 - i));
    const dump = await request(`${origin}/__admin/pets`);
    expect(((await dump.body.json()) as unknown[]).length).toBe(100);
  });

  it('holds no whole answer for clients that do not read (backpressure)', async () => {
    const before = process.memoryUsage().heapUsed;
    const port = Number(new URL(mock.url).port);
    const ask = `GET /v1/pets?limit=100 HTTP/1.1\r\nHost: 127.0.0.1\r\n${AUTH}\r\n`;
    // 30 clients ask for a 20 MB list, three times each, and never read a byte of it.
    const sockets = await Promise.all(
      Array.from(
        { length: 30 },
        () =>
          new Promise<Socket>((resolve) => {
            const socket = connect(port, '127.0.0.1', () => {
              socket.pause();
              socket.write(ask.repeat(3));
              resolve(socket);
            });
          }),
      ),
    );
    await new Promise((resolve) => setTimeout(resolve, 500));
    const grown = process.memoryUsage().heapUsed - before;
    for (const socket of sockets) socket.destroy();
    // Unbounded, each would hold its 20 MB answer: 600 MB. Bounded, a socket holds its buffer and one pet.
    expect(grown).toBeLessThan(150 * 1024 * 1024);
    expect((await call(mock.url, 'GET', '/pets?limit=1')).status).toBe(200);
  });
});
