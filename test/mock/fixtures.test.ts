import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { packageRoot } from '../../src/contract/package-root.js';
import { createMockServer } from '../../src/mock/create-mock-server.js';
import { call } from '../support/http.js';
import { startMock } from '../support/start-mock.js';

describe('fixtures', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'petstore-fixtures-'));
  const write = async (name: string, text: string) => {
    const file = join(dir, name);
    await writeFile(file, text);
    return file;
  };

  it('loads fixtures/pets.json: more than 20 ordinary pets over all three statuses, each number safe in a browser', async () => {
    const mock = await startMock();
    const pets = mock.store.all();
    expect(pets.length).toBeGreaterThan(20);
    expect(new Set(pets.map((p) => p.status))).toEqual(new Set(['available', 'pending', 'sold']));
    // A UI developer's first page: res.json() must not change a digit of what it shows and sends back.
    const listed = await call(mock.url, 'GET', '/pets');
    for (const pet of listed.json as { id: number; categoryId: number }[]) {
      expect(Number.isSafeInteger(pet.id) && Number.isSafeInteger(pet.categoryId), JSON.stringify(pet)).toBe(true);
    }
  });

  it('serves the opt-in fixtures/edge-cases.json with exact int64 digits, Unicode names and an id near 2^53', async () => {
    const mock = await startMock({ fixtures: join(packageRoot(), 'fixtures', 'edge-cases.json') });
    expect((await call(mock.url, 'GET', '/pets/1')).text).toContain('"categoryId":9007199254740993');
    expect((await call(mock.url, 'GET', '/pets/2')).text).toContain('"categoryId":9223372036854775807');
    expect((await call(mock.url, 'GET', '/pets/3')).json).toMatchObject({ name: 'Zoë the 🐈' });
    const created = await call(mock.url, 'POST', '/pets', { body: { name: 'next', categoryId: 1 } });
    expect(created.text).toContain('"id":9007199254740991');
  });

  it('continues ids after the largest fixture id', async () => {
    const file = await write('ids.json', '[{"id":40,"name":"a","categoryId":1},{"id":7,"name":"b","categoryId":1}]');
    const mock = await startMock({ fixtures: file });
    const created = await call(mock.url, 'POST', '/pets', { body: { name: 'c', categoryId: 1 } });
    expect((created.json as { id: number }).id).toBe(41);
  });

  it('hands out ids up to 2^53−1 after a fixture near it, then answers 409 store_full and keeps serving', async () => {
    const file = await write('near-limit.json', '[{"id":9007199254740990,"name":"a","categoryId":1}]');
    const mock = await startMock({ fixtures: file });
    const last = await call(mock.url, 'POST', '/pets', { body: { name: 'last', categoryId: 1 } });
    expect(last.status).toBe(201);
    expect(last.text).toContain('"id":9007199254740991');
    const refused = await call(mock.url, 'POST', '/pets', { body: { name: 'one too many', categoryId: 1 } });
    expect(refused.status).toBe(409);
    expect(refused.json).toMatchObject({ code: 'store_full', status: 409 });
    expect((refused.json as { message: string }).message).toContain('no id left');
    expect((await call(mock.url, 'GET', '/pets/9007199254740991')).json).toMatchObject({ name: 'last' });
    expect(mock.store.size).toBe(2);
  });

  it('starts empty with fixtures: false', async () => {
    const mock = await startMock({ fixtures: false });
    expect((await call(mock.url, 'GET', '/pets')).json).toEqual([]);
  });

  it.each([
    ['not JSON', '[{', 'not valid JSON'],
    ['not an array', '{"id":1}', 'must be a JSON array of records, or an object keyed by collection path'],
  ])('refuses to start on fixtures that are %s, naming the file', async (_, text, message) => {
    const file = await write('bad.json', text);
    const error = await createMockServer({ port: 0, fixtures: file }).catch((e: Error & { code?: string }) => e);
    expect(error).toBeInstanceOf(Error);
    expect((error as Error & { code: string }).code).toBe('fixtures_invalid');
    expect((error as Error).message).toContain(file);
    expect((error as Error).message).toContain(message);
  });

  it.each([
    ['a missing name', '{"id":2,"categoryId":1}', 'entry 1: [1].name: is required'],
    ['a string categoryId', '{"id":2,"name":"a","categoryId":"7"}', 'entry 1: [1].categoryId: must be integer'],
    ['an unknown status', '{"id":2,"name":"a","categoryId":1,"status":"gone"}', 'entry 1: [1].status: must be one of'],
    ['a duplicate id', '{"id":1,"name":"b","categoryId":1}', 'entry 1: [1].id: 1 is used by an earlier entry'],
    ['an id above 2^53', '{"id":9007199254740993,"name":"a","categoryId":1}', 'entry 1: [1].id: must be a positive integer'],
  ])(
    'starts without a fixture with %s, naming the file, entry and field, and sets it aside in a side file',
    async (name, bad, message) => {
      const file = await write(`${name.replaceAll(/\W/g, '-')}.json`, `[{"id":1,"name":"kept","categoryId":1},${bad}]`);
      const notices: string[] = [];
      const mock = await createMockServer({ port: 0, fixtures: file, notice: (line) => notices.push(line) });
      try {
        expect(mock.store.all().map((pet) => pet.name)).toEqual(['kept']);
        expect(notices[0]).toContain(`fixtures ${file}: 1 record no longer fits the contract`);
        expect(notices[0]).toContain(message);
        const sideFile = /moved to (\S+);/.exec(notices[0] ?? '')?.[1] as string;
        expect(sideFile.startsWith(`${file}.rejected-`)).toBe(true);
        const [line] = (await readFile(sideFile, 'utf8')).trim().split('\n');
        expect(JSON.parse(line as string)).toMatchObject({
          store: null,
          position: 'entry 1',
          reason: expect.stringContaining(message.slice(9)),
        });
        expect(line).toContain(bad);
      } finally {
        await mock.close();
      }
    },
  );

  it('names a missing fixtures file', async () => {
    const error = await createMockServer({ port: 0, fixtures: join(dir, 'absent.json') }).catch((e: Error) => e);
    expect((error as Error).message).toMatch(/absent\.json: ENOENT/);
  });
});
