import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadContract } from '../../src/contract/load-contract.js';
import { createMockServer } from '../../src/mock/create-mock-server.js';
import { call } from '../support/http.js';

// What the mock fills in a record that the request does not give, what it never answers (writeOnly), and the
// headers its answers must carry, on a contract that is not the Pet Store (test/contracts/server-fields).
const CONTRACT = 'test/contracts/server-fields/openapi.yaml';
const MERGE = { 'content-type': 'application/merge-patch+json' };

type Row = Record<string, unknown>;

describe('records complete against their representation', async () => {
  // Not startMock: its self-check holds answers to openapi.yaml's error body, which is not this contract's.
  const mock = await createMockServer({ contract: CONTRACT, fixtures: false, port: 0, host: '127.0.0.1' });
  afterAll(() => mock.close());
  const contract = await loadContract(CONTRACT);
  const validate = (operationId: string, status: string) =>
    contract.byId.get(operationId)?.responses.find((r) => r.code === status)?.contents[0]?.validate;

  const project = async (name: string) => {
    const made = await call(mock.url, 'POST', '/projects', { body: { name, password: 'correct-horse-battery' } });
    expect(made.status, made.text).toBe(201);
    return made;
  };

  it('gives text ids that match the id pattern, unique, and answers them at their item path', async () => {
    const ids = new Set<unknown>();
    for (let n = 0; n < 20; n++) ids.add(((await project(`P${n}`)).json as Row).id);
    expect(ids.size).toBe(20);
    for (const id of ids) expect(id).toMatch(/^prj_[0-9a-z]{10}$/);
    const [first] = [...ids];
    const read = await call(mock.url, 'GET', `/projects/${first}`);
    expect(read.status, read.text).toBe(200);
    expect((read.json as Row).id).toBe(first);
  });

  it('fills the readOnly const and never answers the writeOnly password: create, get, list', async () => {
    const made = await project('Site');
    expect(made.json).toEqual({ id: (made.json as Row).id, kind: 'project', name: 'Site' });
    expect(validate('createProject', '201')?.(made.json)).toEqual([]);
    const id = (made.json as Row).id as string;
    const read = await call(mock.url, 'GET', `/projects/${id}`);
    expect(read.text).not.toContain('password');
    expect(read.text).not.toContain('correct-horse');
    const list = await call(mock.url, 'GET', '/projects?limit=50');
    expect(list.text).not.toContain('password');
  });

  it('fills required fields a create leaves out: const, nullable → null, default, array → []', async () => {
    const id = ((await project('Tasks')).json as Row).id as string;
    const made = await call(mock.url, 'POST', `/projects/${id}/tasks`, { body: { title: 'Copy' } });
    expect(made.status, made.text).toBe(201);
    expect(made.json).toEqual({
      id: (made.json as Row).id,
      kind: 'task',
      title: 'Copy',
      assignee: null,
      seats: 1,
      pinned: false,
      tags: [],
    });
    expect(validate('createTask', '201')?.(made.json)).toEqual([]);
  });

  it('accepts a merge patch that changes one field, and stores null for a nullable required field it removes', async () => {
    const id = ((await project('Patch')).json as Row).id as string;
    const made = await call(mock.url, 'POST', `/projects/${id}/tasks`, { body: { title: 'Copy', tags: ['a'] } });
    const task = `/projects/${id}/tasks/${(made.json as Row).id}`;
    const patched = await call(mock.url, 'PATCH', task, { body: { assignee: 'ana' }, headers: MERGE });
    expect(patched.status, patched.text).toBe(200);
    expect(patched.json).toMatchObject({ kind: 'task', title: 'Copy', assignee: 'ana', tags: ['a'] });
    const cleared = await call(mock.url, 'PATCH', task, { body: { assignee: null }, headers: MERGE });
    expect(cleared.status, cleared.text).toBe(200);
    expect((cleared.json as Row).assignee).toBeNull();
    // Removing a required field that may not be null would store an invalid record.
    const removed = await call(mock.url, 'PATCH', task, { body: { title: null }, headers: MERGE });
    expect(removed.status).toBe(400);
  });

  it('fills what a replace leaves out and keeps the server-set const', async () => {
    const id = ((await project('Put')).json as Row).id as string;
    const body = { title: 'Copy', assignee: 'ana', seats: 3, tags: ['x'] };
    const taskId = ((await call(mock.url, 'POST', `/projects/${id}/tasks`, { body })).json as Row).id;
    const put = await call(mock.url, 'PUT', `/projects/${id}/tasks/${taskId}`, { body: { title: 'Again' } });
    expect(put.status, put.text).toBe(200);
    expect(put.json).toEqual({ id: taskId, kind: 'task', title: 'Again', assignee: null, seats: 1, pinned: false, tags: [] });
  });

  it('sends the headers its responses require: an ETag that follows the record, a uuid request id', async () => {
    const made = await project('Headers');
    expect(made.headers.etag).toMatch(/^"[^"]+"$/);
    expect(made.headers['x-request-id']).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
    const id = (made.json as Row).id as string;
    const taskId = ((await call(mock.url, 'POST', `/projects/${id}/tasks`, { body: { title: 'Copy' } })).json as Row).id;
    const task = `/projects/${id}/tasks/${taskId}`;
    const before = await call(mock.url, 'GET', task);
    expect(before.headers.etag).toMatch(/^"[^"]+"$/);
    expect((await call(mock.url, 'GET', task)).headers.etag).toBe(before.headers.etag);
    const patched = await call(mock.url, 'PATCH', task, { body: { pinned: true }, headers: MERGE });
    expect(patched.headers.etag).toMatch(/^"[^"]+"$/);
    expect(patched.headers.etag).not.toBe(before.headers.etag);
    // A response that documents no header gets none made up.
    expect((await call(mock.url, 'GET', `/projects/${id}/tasks`)).headers.etag).toBeUndefined();
  });
});

describe('records given whole', () => {
  it("keeps a fixture's writeOnly field out of every answer", async () => {
    const file = join(await mkdtemp(join(tmpdir(), 'server-fields-')), 'fixtures.json');
    const project = { id: 'prj_0a1b2c3d4e', kind: 'project', name: 'Old', password: 'fixture-secret' };
    await writeFile(file, JSON.stringify({ '/projects': [project] }));
    const mock = await createMockServer({ contract: CONTRACT, fixtures: file, port: 0, host: '127.0.0.1' });
    try {
      const read = await call(mock.url, 'GET', '/projects/prj_0a1b2c3d4e');
      expect(read.status, read.text).toBe(200);
      expect(read.json).toEqual({ id: 'prj_0a1b2c3d4e', kind: 'project', name: 'Old' });
      expect((await call(mock.url, 'GET', '/projects')).text).not.toContain('fixture-secret');
    } finally {
      await mock.close();
    }
  });
});
