import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createMockServer } from '../../src/mock/create-mock-server.js';
import { call } from '../support/http.js';

// Records made by PUT at an id the client chooses, with no POST (docs/reference/resources.md rule 11), over real HTTP.
const UPSERT = 'test/contracts/upsert/openapi.yaml';

type Row = Record<string, unknown>;

describe('a resource made by PUT at a client-chosen id', async () => {
  // Not startMock: its self-check holds answers to openapi.yaml, and the mock's Error body is not this contract's.
  const mock = await createMockServer({ contract: UPSERT, fixtures: false, port: 0, host: '127.0.0.1', log: () => {} });
  afterAll(() => mock.close());
  const bucket = { region: 'eu-west', label: 'Photos', description: 'from the summer' };

  it('creates at the path id (201), replaces there (200), and get, list and delete see it', async () => {
    const made = await call(mock.url, 'PUT', '/buckets/summer-photos', { body: bucket });
    expect(made.status).toBe(201);
    expect(made.json).toEqual({ name: 'summer-photos', ...bucket });
    expect((await call(mock.url, 'GET', '/buckets/summer-photos')).json).toEqual({ name: 'summer-photos', ...bucket });

    // A replace: a field left out is gone, the id stays, and a body id that disagrees loses to the path.
    const replaced = await call(mock.url, 'PUT', '/buckets/summer-photos', {
      body: { region: 'us-east', label: 'Holidays', name: 'other-name' },
    });
    expect(replaced.status).toBe(200);
    const now = { name: 'summer-photos', region: 'us-east', label: 'Holidays' };
    expect(replaced.json).toEqual(now);
    expect((await call(mock.url, 'GET', '/buckets/summer-photos')).json).toEqual(now);
    expect((await call(mock.url, 'GET', '/buckets/other-name')).status).toBe(404);
    const listed = (await call(mock.url, 'GET', '/buckets')).json as Row[];
    expect(listed.filter((b) => b.name === 'summer-photos')).toEqual([now]);

    expect((await call(mock.url, 'DELETE', '/buckets/summer-photos')).status).toBe(204);
    expect((await call(mock.url, 'GET', '/buckets/summer-photos')).status).toBe(404);
    expect(((await call(mock.url, 'GET', '/buckets')).json as Row[]).some((b) => b.name === 'summer-photos')).toBe(false);
  });

  it('scopes nested records to their parent, refuses a missing parent, and deletes them with it', async () => {
    expect((await call(mock.url, 'PUT', '/buckets/docs-a', { body: bucket })).status).toBe(201);
    expect((await call(mock.url, 'PUT', '/buckets/docs-b', { body: bucket })).status).toBe(201);
    const object = { contentType: 'text/plain', content: 'hello' };
    const made = await call(mock.url, 'PUT', '/buckets/docs-a/objects/readme.txt', { body: object });
    expect(made.status).toBe(201);
    expect(made.json).toEqual({ key: 'readme.txt', ...object });
    expect((await call(mock.url, 'GET', '/buckets/docs-a/objects/readme.txt')).status).toBe(200);
    expect((await call(mock.url, 'GET', '/buckets/docs-b/objects/readme.txt')).status).toBe(404);
    expect((await call(mock.url, 'GET', '/buckets/docs-a/objects')).json).toEqual({ items: [{ key: 'readme.txt', ...object }] });
    expect((await call(mock.url, 'GET', '/buckets/docs-b/objects')).json).toEqual({ items: [] });
    expect((await call(mock.url, 'PUT', '/buckets/no-such/objects/readme.txt', { body: object })).status).toBe(404);

    expect((await call(mock.url, 'DELETE', '/buckets/docs-a')).status).toBe(204);
    expect((await call(mock.url, 'PUT', '/buckets/docs-a', { body: bucket })).status).toBe(201);
    expect((await call(mock.url, 'GET', '/buckets/docs-a/objects/readme.txt')).status).toBe(404);
  });

  it('validates the path id against its pattern and keeps sessions apart', async () => {
    // A path value outside its pattern is refused with the 400 putBucket documents (it documents no 404): nothing is made there.
    expect((await call(mock.url, 'PUT', '/buckets/No_Caps', { body: bucket })).status).toBe(400);
    expect(((await call(mock.url, 'GET', '/buckets')).json as Row[]).some((b) => b.name === 'No_Caps')).toBe(false);
    const headers = { 'x-mock-session': 'upsert-a' };
    expect((await call(mock.url, 'PUT', '/buckets/in-session', { body: bucket, headers })).status).toBe(201);
    expect((await call(mock.url, 'GET', '/buckets/in-session', { headers })).status).toBe(200);
    expect((await call(mock.url, 'GET', '/buckets/in-session')).status).toBe(404);
  });

  it('answers a path value its schema refuses with the 400 putSlot documents, not the 404 it does not', async () => {
    for (const slot of ['abc', '0']) {
      const refused = await call(mock.url, 'PUT', `/slots/${slot}`, { body: { label: 'x' } });
      expect(refused.status).toBe(400);
    }
    // getSlot documents its 404: there the same value names no record.
    expect((await call(mock.url, 'GET', '/slots/abc')).status).toBe(404);
  });

  it('keeps the path id over a body id that disagrees, and answers a PUT documenting only 204 with 204', async () => {
    const made = await call(mock.url, 'PUT', '/slots/5', { body: { slotId: 7, label: 'five' } });
    expect(made.status).toBe(204);
    expect(made.text).toBe('');
    expect((await call(mock.url, 'GET', '/slots/5')).json).toEqual({ slotId: 5, label: 'five' });
    expect((await call(mock.url, 'GET', '/slots/7')).status).toBe(404);
    expect((await call(mock.url, 'PUT', '/slots/5', { body: { slotId: 5, label: 'still five' } })).status).toBe(204);
    expect((await call(mock.url, 'GET', '/slots')).json).toEqual([{ slotId: 5, label: 'still five' }]);
  });

  it('shows the PUT records through the admin endpoint', async () => {
    expect((await call(mock.url, 'PUT', '/buckets/admin-seen', { body: bucket })).status).toBe(201);
    const origin = new URL(mock.url).origin;
    const records = await call(origin, 'GET', '/__admin/records?resource=/buckets');
    expect(JSON.stringify(records.json)).toContain('admin-seen');
  });
});

describe('records made by PUT, kept as any other', () => {
  const bucket = { region: 'ap-south', label: 'Kept' };
  const start = (options: { stateFile?: string; maxPets?: number }) =>
    createMockServer({ contract: UPSERT, fixtures: false, port: 0, host: '127.0.0.1', log: () => {}, ...options });

  it('outlive a restart in the state file, nested ones under their parent', async () => {
    const stateFile = join(await mkdtemp(join(tmpdir(), 'upsert-')), 'state.jsonl');
    const first = await start({ stateFile });
    expect((await call(first.url, 'PUT', '/buckets/kept-here', { body: bucket })).status).toBe(201);
    const object = { contentType: 'text/csv', content: 'a,b' };
    expect((await call(first.url, 'PUT', '/buckets/kept-here/objects/data.csv', { body: object })).status).toBe(201);
    await first.close();
    const second = await start({ stateFile });
    try {
      expect((await call(second.url, 'GET', '/buckets/kept-here')).json).toEqual({ name: 'kept-here', ...bucket });
      expect((await call(second.url, 'GET', '/buckets/kept-here/objects/data.csv')).json).toEqual({ key: 'data.csv', ...object });
      // Made before the restart, so replaced now.
      expect((await call(second.url, 'PUT', '/buckets/kept-here', { body: bucket })).status).toBe(200);
    } finally {
      await second.close();
    }
  });

  it('count against --max-pets: a PUT past it that would create is store_full, one that replaces is not', async () => {
    const mock = await start({ maxPets: 1 });
    try {
      expect((await call(mock.url, 'PUT', '/buckets/only-one', { body: bucket })).status).toBe(201);
      const full = await call(mock.url, 'PUT', '/buckets/one-more', { body: bucket });
      expect(full.status).toBe(409);
      expect(full.json).toMatchObject({ code: 'store_full' });
      expect((await call(mock.url, 'PUT', '/buckets/only-one', { body: { ...bucket, label: 'Again' } })).status).toBe(200);
      expect((await call(mock.url, 'GET', '/buckets/one-more')).status).toBe(404);
    } finally {
      await mock.close();
    }
  });
});

describe('a PUT that creates and enforces If-Match', () => {
  it('refuses an If-Match at an id no record has with 412 (RFC 9110 §13.1.1), and makes nothing', async () => {
    const file = join(await mkdtemp(join(tmpdir(), 'upsert-if-match-')), 'openapi.yaml');
    const note = { type: 'object', required: ['key', 'text'], properties: { key: { type: 'string' }, text: { type: 'string' } } };
    const json = { content: { 'application/json': { schema: note } } };
    const item = {
      parameters: [{ name: 'key', in: 'path', required: true, schema: { type: 'string' } }],
      get: { operationId: 'getNote', responses: { 200: { description: 'ok', ...json }, 404: { description: 'none' } } },
      put: {
        operationId: 'putNote',
        requestBody: { required: true, ...json },
        responses: { 200: { description: 'ok', ...json }, 201: { description: 'made', ...json }, 412: { description: 'stale' } },
      },
    };
    const document = { openapi: '3.0.3', info: { title: 'Notes', version: '1' }, paths: { '/notes/{key}': item } };
    await writeFile(file, JSON.stringify(document));
    const mock = await createMockServer({ contract: file, fixtures: false, port: 0, host: '127.0.0.1', log: () => {} });
    try {
      const body = { key: 'a', text: 'x' };
      expect((await call(mock.url, 'PUT', '/notes/a', { body, headers: { 'if-match': '*' } })).status).toBe(412);
      expect((await call(mock.url, 'GET', '/notes/a')).status).toBe(404);
      expect((await call(mock.url, 'PUT', '/notes/a', { body })).status).toBe(201);
      expect((await call(mock.url, 'PUT', '/notes/a', { body, headers: { 'if-match': '*' } })).status).toBe(200);
    } finally {
      await mock.close();
    }
  });
});
