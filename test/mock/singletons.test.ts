import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createMockServer } from '../../src/mock/create-mock-server.js';
import { runCli } from '../conformance/run-cli.js';
import { call } from '../support/http.js';
import { startMock } from '../support/start-mock.js';

// A single record (docs/reference/resources.md rule 12) is kept per store: seeded from the GET's example, replaced by
// PUT, merged by PATCH, one per project under /projects/{projectId}/settings. startMock checks every answer against
// the contract when the file ends.
const CONTRACT = 'test/contracts/singletons/openapi.yaml';
const SEED = { theme: 'light', pageSize: 20, signature: 'Sent from Workspace' };
const MERGE = { 'content-type': 'application/merge-patch+json' };

describe('single records in the mock', async () => {
  const mock = await startMock({ contract: CONTRACT, fixtures: false });
  const origin = new URL(mock.url).origin;
  const reset = () => call(origin, 'POST', '/__admin/reset', { auth: null });
  const project = async () => (await call(mock.url, 'POST', '/projects', { body: { name: 'Apollo' } })).json as { id: number };

  it('starts as the example, keeps a PUT, merges a PATCH, and a reset brings the example back', async () => {
    await reset();
    expect((await call(mock.url, 'GET', '/settings')).json).toEqual(SEED);
    const put = await call(mock.url, 'PUT', '/settings', { body: { theme: 'dark', pageSize: 50 } });
    expect([put.status, put.json]).toEqual([200, { theme: 'dark', pageSize: 50 }]);
    expect((await call(mock.url, 'GET', '/settings')).json).toEqual({ theme: 'dark', pageSize: 50 });
    const patched = await call(mock.url, 'PATCH', '/settings', { body: JSON.stringify({ signature: 'Bye' }), headers: MERGE });
    expect(patched.json).toEqual({ theme: 'dark', pageSize: 50, signature: 'Bye' });
    await call(mock.url, 'PATCH', '/settings', { body: JSON.stringify({ signature: null }), headers: MERGE });
    expect((await call(mock.url, 'GET', '/settings')).json).toEqual({ theme: 'dark', pageSize: 50 });
    expect((await reset()).status).toBe(200);
    expect((await call(mock.url, 'GET', '/settings')).json).toEqual(SEED);
  });

  it('refuses a PATCH whose result breaks the schema, and a PUT its body schema refuses, changing nothing', async () => {
    await reset();
    const nulled = await call(mock.url, 'PATCH', '/settings', { body: JSON.stringify({ theme: null }), headers: MERGE });
    expect([nulled.status, (nulled.json as { code: string }).code]).toEqual([400, 'validation_failed']);
    const wrong = await call(mock.url, 'PUT', '/settings', { body: { theme: 'purple', pageSize: 5 } });
    expect(wrong.status).toBe(400);
    expect((await call(mock.url, 'GET', '/settings')).json).toEqual(SEED);
  });

  it('keeps one record per session, and answers auth and Prefer as for any operation', async () => {
    await reset();
    await call(mock.url, 'PUT', '/settings', { body: { theme: 'dark', pageSize: 7 }, headers: { 'x-mock-session': 'a' } });
    expect((await call(mock.url, 'GET', '/settings', { headers: { 'x-mock-session': 'a' } })).json).toEqual({
      theme: 'dark',
      pageSize: 7,
    });
    expect((await call(mock.url, 'GET', '/settings', { headers: { 'x-mock-session': 'b' } })).json).toEqual(SEED);
    expect((await call(mock.url, 'GET', '/settings')).json).toEqual(SEED);
    expect((await call(mock.url, 'GET', '/settings', { auth: null })).status).toBe(401);
    expect(
      (await call(mock.url, 'PUT', '/settings', { body: { theme: 'dark', pageSize: 9 }, headers: { prefer: 'code=400' } }))
        .status,
    ).toBe(400);
    expect((await call(mock.url, 'GET', '/settings')).json).toEqual(SEED);
  });

  it("keeps each project's own, keeps its readOnly updatedAt, 404s a project no one has, and drops it with the project", async () => {
    await reset();
    const [a, b] = [await project(), await project()];
    const put = await call(mock.url, 'PUT', `/projects/${a.id}/settings`, {
      body: { visibility: 'public', defaultBranch: 'dev', updatedAt: '2000-01-01T00:00:00Z' },
    });
    expect(put.json).toEqual({ visibility: 'public', defaultBranch: 'dev', updatedAt: '2026-01-05T09:00:00Z' });
    expect((await call(mock.url, 'GET', `/projects/${b.id}/settings`)).json).toMatchObject({ visibility: 'private' });
    expect((await call(mock.url, 'GET', '/projects/9999/settings')).status).toBe(404);
    expect((await call(mock.url, 'DELETE', `/projects/${a.id}`)).status).toBe(204);
    expect((await call(mock.url, 'GET', `/projects/${a.id}/settings`)).status).toBe(404);
    expect(
      (await call(mock.url, 'PUT', `/projects/${a.id}/settings`, { body: { visibility: 'public', defaultBranch: 'x' } })).status,
    ).toBe(404);
  });

  it('lists, reads, replaces (checked like a write) and resets them through /__admin/singletons, per store', async () => {
    await reset();
    const admin = (method: string, query: string, options: Parameters<typeof call>[3] = {}) =>
      call(origin, method, `/__admin/singletons${query}`, { auth: null, ...options });
    expect((await admin('GET', '')).json).toEqual([{ path: '/settings', written: false, record: SEED }]);
    const put = await admin('PUT', '?path=/settings', { body: { theme: 'dark', pageSize: 3 } });
    expect([put.status, put.json]).toEqual([
      200,
      { status: 'replaced', path: '/settings', record: { theme: 'dark', pageSize: 3 } },
    ]);
    expect((await call(mock.url, 'GET', '/settings')).json).toEqual({ theme: 'dark', pageSize: 3 });
    for (const [body, code] of [
      [{ theme: 'purple', pageSize: 3 }, 'validation_failed'],
      [{ theme: 'dark' }, 'validation_failed'],
      ['{"theme":', 'invalid_json'],
    ] as const) {
      const refused = await admin('PUT', '?path=/settings', { body });
      expect([refused.status, (refused.json as { code: string }).code]).toEqual([400, code]);
    }
    expect((await admin('GET', '?path=/settings')).json).toEqual({ theme: 'dark', pageSize: 3 });

    const { id } = await project();
    const own = { visibility: 'internal', defaultBranch: 'dev', updatedAt: '2026-02-01T00:00:00Z' };
    expect((await admin('PUT', `?path=/projects/${id}/settings`, { body: own })).status).toBe(200);
    expect((await call(mock.url, 'GET', `/projects/${id}/settings`)).json).toEqual(own);
    expect((await admin('GET', '')).json).toEqual([
      { path: '/settings', written: true, record: { theme: 'dark', pageSize: 3 } },
      { path: `/projects/${id}/settings`, written: true, record: own },
    ]);
    const noParent = await admin('PUT', '?path=/projects/999/settings', { body: own });
    expect([noParent.status, (noParent.json as { code: string }).code]).toEqual([404, 'record_not_found']);
    const nowhere = await admin('GET', '?path=/nothing');
    expect([nowhere.status, (nowhere.json as { code: string }).code]).toEqual([404, 'not_found']);
    expect((await admin('PUT', '', { body: own })).status).toBe(400);

    const session = { 'x-mock-session': 'admin-1' };
    expect((await admin('PUT', '?path=/settings', { body: { theme: 'light', pageSize: 1 }, headers: session })).status).toBe(200);
    expect((await call(mock.url, 'GET', '/settings', { headers: session })).json).toEqual({ theme: 'light', pageSize: 1 });
    expect((await call(mock.url, 'GET', '/settings')).json).toEqual({ theme: 'dark', pageSize: 3 });

    expect((await admin('DELETE', '?path=/settings')).json).toEqual({ status: 'reset', path: '/settings' });
    expect((await call(mock.url, 'GET', '/settings')).json).toEqual(SEED);
    expect((await call(mock.url, 'GET', `/projects/${id}/settings`)).json).toEqual(own);
    expect((await admin('DELETE', '')).json).toEqual({ status: 'reset' });
    expect((await call(mock.url, 'GET', `/projects/${id}/settings`)).json).toMatchObject({ visibility: 'private' });
    expect((await call(mock.url, 'GET', '/settings', { headers: session })).json).toEqual({ theme: 'light', pageSize: 1 });
  });

  it('passes the runner on its contract (exit 0)', async () => {
    await reset();
    const run = await runCli(['--target', mock.url, '--contract', CONTRACT, '--generate', 'effects', '--seed', '1']);
    expect(run.code, run.out).toBe(0);
    expect(run.out).toContain('/settings (singleton: get, replace, merge-patch)');
    expect((await call(mock.url, 'GET', '/settings')).json).toEqual(SEED);
  });
});

describe('single records and the byte budget', () => {
  it('pays for each record written from --max-store-bytes: past it a write is 409 store_full, a rewrite costs only its change, a reset gives the bytes back', async () => {
    const mock = await createMockServer({ port: 0, contract: CONTRACT, fixtures: false, maxStoreBytes: 1_000_000 });
    try {
      const origin = new URL(mock.url).origin;
      // ProjectSettings takes fields it does not name: 100,000 characters of one are about 200 KB in memory.
      const big = { visibility: 'public', defaultBranch: 'main', notes: 'x'.repeat(100_000) };
      const writeIn = async (session: string) => {
        const headers = { 'x-mock-session': session };
        const { id } = (await call(mock.url, 'POST', '/projects', { body: { name: 'Apollo' }, headers })).json as { id: number };
        return call(mock.url, 'PUT', `/projects/${id}/settings`, { body: big, headers });
      };
      const statuses: number[] = [];
      for (let i = 0; i < 8; i++) statuses.push((await writeIn(`s${i}`)).status);
      expect(statuses).toEqual([200, 200, 200, 200, 409, 409, 409, 409]);
      const refused = await writeIn('s9');
      expect((refused.json as { code: string; message: string }).code).toBe('store_full');
      expect((refused.json as { message: string }).message).toContain('--max-store-bytes');
      // The same record written again is paid for once.
      for (let i = 0; i < 20; i++) {
        const again = await call(mock.url, 'PUT', '/projects/1/settings', { body: big, headers: { 'x-mock-session': 's0' } });
        expect(again.status).toBe(200);
      }
      await call(origin, 'POST', '/__admin/reset', { auth: null });
      expect((await writeIn('s10')).status).toBe(200);
    } finally {
      await mock.close();
    }
  });
});

describe('single records and --state-file', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'singletons-state-'));
  const SESSION = { 'x-mock-session': 'w1' };

  it('keeps them across a restart, in the default store and a session, under their parents', async () => {
    const stateFile = join(dir, 'kept.jsonl');
    const first = await createMockServer({ port: 0, contract: CONTRACT, fixtures: false, stateFile });
    await call(first.url, 'PUT', '/settings', { body: { theme: 'dark', pageSize: 5 } });
    await call(first.url, 'PUT', '/settings', { body: { theme: 'light', pageSize: 9 }, headers: SESSION });
    const { id } = (await call(first.url, 'POST', '/projects', { body: { name: 'Apollo' }, headers: SESSION })).json as {
      id: number;
    };
    const project = { visibility: 'public', defaultBranch: 'trunk', updatedAt: '2026-01-05T09:00:00Z' };
    await call(first.url, 'PUT', `/projects/${id}/settings`, { body: project, headers: SESSION });
    await first.close();
    const lines = (await readFile(stateFile, 'utf8')).trim().split('\n');
    expect(lines[0]).toBe('{"version":3}');
    expect(lines).toContain('["singleton","","/settings"]');
    expect(lines).toContain(`[["${id}"],${JSON.stringify(project)}]`);

    const second = await createMockServer({ port: 0, contract: CONTRACT, fixtures: false, stateFile });
    try {
      expect((await call(second.url, 'GET', '/settings')).json).toEqual({ theme: 'dark', pageSize: 5 });
      expect((await call(second.url, 'GET', '/settings', { headers: SESSION })).json).toEqual({ theme: 'light', pageSize: 9 });
      expect((await call(second.url, 'GET', `/projects/${id}/settings`, { headers: SESSION })).json).toEqual(project);
    } finally {
      await second.close();
    }
  });

  it('reads a version 2 file, which holds none, and sets aside a record the contract refuses, of a key it lacks, or under a parent the file lacks', async () => {
    const old = join(dir, 'v2.jsonl');
    await writeFile(old, '{"version":2}\n["store","","/projects"]\n{"id":3,"name":"Old"}\n');
    const fromOld = await createMockServer({ port: 0, contract: CONTRACT, fixtures: false, stateFile: old });
    try {
      expect((await call(fromOld.url, 'GET', '/projects/3')).json).toEqual({ id: 3, name: 'Old' });
      expect((await call(fromOld.url, 'GET', '/settings')).json).toEqual(SEED);
    } finally {
      await fromOld.close();
    }

    const stateFile = join(dir, 'mixed.jsonl');
    const lines = [
      '{"version":3}',
      '["store","","/projects"]',
      '{"id":3,"name":"Kept"}',
      '["singleton","","/settings"]',
      '{"theme":"purple","pageSize":5}',
      '["singleton","","/gone"]',
      '{"a":1}',
      '["singleton","","/projects/{}/settings"]',
      '[["3"],{"visibility":"internal","defaultBranch":"dev"}]',
      '[["8"],{"visibility":"internal","defaultBranch":"dev"}]',
    ];
    await writeFile(stateFile, `${lines.join('\n')}\n`);
    const notices: string[] = [];
    const mock = await createMockServer({
      port: 0,
      contract: CONTRACT,
      fixtures: false,
      stateFile,
      notice: (l) => notices.push(l),
    });
    try {
      expect((await call(mock.url, 'GET', '/settings')).json).toEqual(SEED);
      expect((await call(mock.url, 'GET', '/projects/3/settings')).json).toEqual({
        visibility: 'internal',
        defaultBranch: 'dev',
      });
      expect(notices.join('\n')).toContain(
        '3 records no longer fit the contract (the first, line 5: theme: must be one of "light", "dark")',
      );
      const sideFile = /moved to (\S+);/.exec(notices.join('\n'))?.[1] as string;
      const reasons = (await readFile(sideFile, 'utf8'))
        .trim()
        .split('\n')
        .map((line) => (JSON.parse(line) as { reason: string }).reason);
      expect(reasons.slice(1)).toEqual([
        'the contract has no single record /gone here',
        'no record of /projects has id 8 in this store',
      ]);
    } finally {
      await mock.close();
    }
  });
});

describe('single records and --watch', () => {
  it('refuses a reloaded contract that refuses a record written, naming it, and adopts it once the record is reset', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'singletons-watch-'));
    const file = join(dir, 'openapi.yaml');
    const original = await readFile(CONTRACT, 'utf8');
    await writeFile(file, original);
    const lines: string[] = [];
    const mock = await createMockServer({ port: 0, contract: file, fixtures: false, watch: true, log: (l) => lines.push(l) });
    try {
      await call(mock.url, 'PUT', '/settings', { body: { theme: 'dark', pageSize: 50 } });
      await writeFile(
        file,
        original.replace(
          'pageSize: {type: integer, minimum: 1, maximum: 100}',
          'pageSize: {type: integer, minimum: 1, maximum: 10}',
        ),
      );
      const refused = `petstore-mock: kept the previous contract: ${file} does not accept the single record /settings in the default store: pageSize: must be <= 10`;
      await until(() => lines.some((line) => line.startsWith(refused)));
      expect((await call(mock.url, 'PUT', '/settings', { body: { theme: 'dark', pageSize: 50 } })).status).toBe(200);
      await call(new URL(mock.url).origin, 'DELETE', '/__admin/singletons?path=/settings', { auth: null });
      await writeFile(
        file,
        `${original.replace('pageSize: {type: integer, minimum: 1, maximum: 100}', 'pageSize: {type: integer, minimum: 1, maximum: 10}')}\n`,
      );
      await until(() => lines.some((line) => line.startsWith(`petstore-mock: reloaded ${file}`)));
      expect((await call(mock.url, 'PUT', '/settings', { body: { theme: 'dark', pageSize: 50 } })).status).toBe(400);
    } finally {
      await mock.close();
    }
  });
});

async function until(check: () => boolean): Promise<void> {
  for (let i = 0; i < 300 && !check(); i++) await new Promise((resolve) => setTimeout(resolve, 100));
  expect(check()).toBe(true);
}
