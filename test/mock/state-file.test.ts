import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createMockServer } from '../../src/mock/create-mock-server.js';
import { call } from '../support/http.js';
import { spawnBin } from '../support/spawn-bin.js';

describe('--state-file', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'petstore-state-'));

  it('keeps the pets of every session across a restart, ids continuing', async () => {
    const stateFile = join(dir, 'state.json');
    const first = await createMockServer({ port: 0, stateFile });
    const kept = await call(first.url, 'POST', '/pets', {
      body: '{"name":"Survivor","categoryId":9007199254740993}',
      headers: { 'content-type': 'application/json' },
    });
    await call(first.url, 'POST', '/pets', { body: { name: 'Worker pet', categoryId: 1 }, headers: { 'x-mock-session': 'w1' } });
    await first.close();

    const second = await createMockServer({ port: 0, stateFile });
    const id = (kept.json as { id: number }).id;
    expect((await call(second.url, 'GET', `/pets/${id}`)).text).toContain('"name":"Survivor","categoryId":9007199254740993');
    const session = (await call(second.url, 'GET', '/pets?limit=1', { headers: { 'x-mock-session': 'w1' } })).json;
    expect(session).toMatchObject([{ name: 'Worker pet' }]);
    const next = await call(second.url, 'POST', '/pets', { body: { name: 'After', categoryId: 1 } });
    expect((next.json as { id: number }).id).toBe(id + 1);
    await second.close();
  });

  it('writes the file soon after a change, without waiting for shutdown, atomically', async () => {
    const stateFile = join(dir, 'soon.json');
    const mock = await createMockServer({ port: 0, stateFile, fixtures: false });
    await call(mock.url, 'POST', '/pets', { body: { name: 'Soon', categoryId: 1 } });
    let text = '';
    for (let i = 0; i < 40 && !text.includes('Soon'); i++) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      text = await readFile(stateFile, 'utf8').catch(() => '');
    }
    // JSON Lines: read back a line at a time, so no start ever needs the whole file as one string.
    expect(
      text
        .trim()
        .split('\n')
        .map((line) => JSON.parse(line)),
    ).toEqual([{ version: 3 }, ['store', '', '/pets'], { id: 1, name: 'Soon', categoryId: 1, status: 'available' }]);
    await mock.close();
  });

  it('refuses to start (exit 2) when the state file cannot be written, rather than losing the pets at exit', async () => {
    const stateFile = join(dir, 'no-such-folder', 'state.json');
    const { code, stderr } = await spawnBin('petstore-mock', ['--port', '0', '--state-file', stateFile]).exited;
    expect(code).toBe(2);
    expect(stderr).toContain(`Failed to lock state file ${stateFile}: cannot create ${stateFile}.lock: ENOENT`);
  });

  it('keeps serving when a later write of the state file fails, and says so', async () => {
    const folder = join(dir, 'goes-away');
    await mkdir(folder);
    const stateFile = join(folder, 'state.json');
    const lines: string[] = [];
    const mock = await createMockServer({ port: 0, stateFile, fixtures: false, log: (line) => lines.push(line) });
    await rm(folder, { recursive: true });
    await call(mock.url, 'POST', '/pets', { body: { name: 'Unsaved', categoryId: 1 } });
    for (let i = 0; i < 40 && !lines.some((line) => line.includes('could not write')); i++) {
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(lines).toContain(`petstore-mock: could not write the state file ${stateFile}: ENOENT`);
    expect((await call(mock.url, 'GET', '/pets')).status).toBe(200);
    await mock.close();
  });

  it.each([
    ['not JSON', '{"version":1,'],
    ['another shape', '[1,2,3]'],
    ['a first line that is not the version', '["store","","Pet"]\n{"id":1,"name":"a","categoryId":1}\n'],
    ['a record before its store', '{"version":2}\n{"id":1,"name":"a","categoryId":1}\n'],
    ['nested 100,000 deep', `{"version":1,"stores":{"":${'['.repeat(100_000)}${']'.repeat(100_000)}}}`],
  ])('stops start-up with exit 2 naming a state file that holds %s', async (_, text) => {
    const stateFile = join(dir, `bad-${text.length}.json`);
    await writeFile(stateFile, text);
    const { code, stderr } = await spawnBin('petstore-mock', ['--port', '0', '--state-file', stateFile]).exited;
    expect(code).toBe(2);
    expect(stderr).toContain(`Failed to load state file ${stateFile}: `);
    expect(await readFile(stateFile, 'utf8')).toBe(text);
  });

  it('stops start-up with exit 2 when the file holds more sessions than --max-sessions, leaving it as it is', async () => {
    const stateFile = join(dir, 'sessions.json');
    const text = `{"version":2}\n${['a', 'b', 'c'].map((name) => `["store","${name}","/pets"]\n`).join('')}`;
    await writeFile(stateFile, text);
    const args = ['--port', '0', '--state-file', stateFile, '--max-sessions', '2'];
    const { code, stderr } = await spawnBin('petstore-mock', args).exited;
    expect(code).toBe(2);
    expect(stderr).toContain(`Failed to load state file ${stateFile}: it holds 3 sessions, more than --max-sessions 2`);
    expect(await readFile(stateFile, 'utf8')).toBe(text);
  });

  it('sets aside a record the contract no longer accepts in a side file, says so naming it, and starts with the others', async () => {
    const stateFile = join(dir, 'evolved.json');
    const bad = '{"id":2,"name":5,"categoryId":1}';
    await writeFile(stateFile, `{"version":2}\n["store","","Pet"]\n{"id":1,"name":"fine","categoryId":1}\n${bad}\n`);
    const mock = spawnBin('petstore-mock', ['--port', '0', '--state-file', stateFile]);
    const [, url] = await mock.waitFor(/^PETSTORE_MOCK_URL=(\S+)$/m);
    expect(((await call(url as string, 'GET', '/pets')).json as { name: string }[]).map((pet) => pet.name)).toEqual(['fine']);
    mock.child.kill('SIGTERM');
    const { code, stderr } = await mock.exited;
    expect(code).toBe(0);
    expect(stderr).toContain(
      `state file ${stateFile}: 1 record no longer fits the contract (the first, line 4: name: must be string)`,
    );
    const sideFile = /moved to (\S+);/.exec(stderr)?.[1] as string;
    expect(sideFile.startsWith(`${stateFile}.rejected-`)).toBe(true);
    expect(JSON.parse(await readFile(sideFile, 'utf8'))).toEqual({
      store: '',
      position: 'line 4',
      reason: 'name: must be string',
      record: JSON.parse(bad),
    });
    expect(await readFile(stateFile, 'utf8')).not.toContain('"name":5');
  });

  it('reads a state file of the previous version (one JSON document), setting aside what the contract refuses', async () => {
    const stateFile = join(dir, 'version-1.json');
    await writeFile(
      stateFile,
      '{"version":1,"stores":{"":[{"id":4,"name":"old","categoryId":1}],"w1":[{"id":1,"name":7,"categoryId":1}]}}\n',
    );
    const notices: string[] = [];
    const mock = await createMockServer({ port: 0, stateFile, notice: (line) => notices.push(line) });
    expect(mock.store.all()).toEqual([{ id: 4, name: 'old', categoryId: 1 }]);
    expect(notices.join('\n')).toContain('(the first, stores["w1"][0] of session "w1": name: must be string)');
    await mock.close();
    expect((await readFile(stateFile, 'utf8')).split('\n')[0]).toBe('{"version":3}');
  });

  it("stops a second mock on the same state file with exit 2, naming the first one's PID; the lock goes at close", async () => {
    const stateFile = join(dir, 'shared.json');
    const first = spawnBin('petstore-mock', ['--port', '0', '--state-file', stateFile]);
    await first.waitFor(/^PETSTORE_MOCK_URL=/m);
    const second = await spawnBin('petstore-mock', ['--port', '0', '--state-file', stateFile]).exited;
    expect(second.code).toBe(2);
    expect(second.stderr).toContain(
      `Failed to lock state file ${stateFile}: another petstore-mock (PID ${first.child.pid}) is using it`,
    );
    // Two mocks of one process would overwrite each other just the same.
    const inProcess = await createMockServer({ port: 0, stateFile: join(dir, 'one-process.json') });
    await expect(createMockServer({ port: 0, stateFile: join(dir, 'one-process.json') })).rejects.toMatchObject({
      code: 'state_locked',
    });
    await inProcess.close();
    first.child.kill('SIGTERM');
    expect((await first.exited).code).toBe(0);
    expect(existsSync(`${stateFile}.lock`)).toBe(false);
    const again = await createMockServer({ port: 0, stateFile });
    await again.close();
  });

  it('takes over a lock whose process is gone, and removes the temporary files of writers that are gone', async () => {
    const stateFile = join(dir, 'stale.json');
    const dead = spawnSync(process.execPath, ['-e', '']).pid as number;
    await writeFile(`${stateFile}.lock`, `${dead}\n`);
    const staleOld = `${stateFile}.${dead}.tmp`;
    const staleNew = `${stateFile}.${dead}.0a1b2c.tmp`;
    const live = `${stateFile}.${process.pid}.ffffff.tmp`;
    for (const file of [staleOld, staleNew, live]) await writeFile(file, 'partial');
    const notices: string[] = [];
    const mock = await createMockServer({ port: 0, stateFile, notice: (line) => notices.push(line) });
    expect(await readFile(`${stateFile}.lock`, 'utf8')).toBe(`${process.pid}\n`);
    expect(existsSync(staleOld) || existsSync(staleNew)).toBe(false);
    expect(existsSync(live)).toBe(true);
    expect(notices).toContain(`petstore-mock: removed stale.json.${dead}.tmp, left by a mock that stopped mid-write`);
    await mock.close();
    expect(existsSync(`${stateFile}.lock`)).toBe(false);
  });

  it('never writes a state file past --max-state-bytes: a create that would pass it is 409 store_full', async () => {
    const stateFile = join(dir, 'capped.json');
    const mock = await createMockServer({ port: 0, stateFile, fixtures: false, maxSessions: 0, maxStateBytes: 8192 });
    const statuses: number[] = [];
    let refused: { code?: string; message?: string } = {};
    for (let i = 0; i < 30 && statuses.at(-1) !== 409; i++) {
      const answer = await call(mock.url, 'POST', '/pets', { body: { name: `${i}-${'x'.repeat(500)}`, categoryId: 1 } });
      statuses.push(answer.status);
      refused = answer.json as typeof refused;
    }
    expect(statuses.at(-1)).toBe(409);
    expect(statuses.filter((status) => status === 201).length).toBeGreaterThan(5);
    expect(refused).toMatchObject({ code: 'store_full' });
    expect(refused.message).toContain('--max-state-bytes');
    await mock.close();
    expect((await stat(stateFile)).size).toBeLessThanOrEqual(8192);
    // What it wrote, it reads back: the cap holds across a restart.
    const again = await createMockServer({ port: 0, stateFile, fixtures: false, maxSessions: 0, maxStateBytes: 8192 });
    expect(again.store.size).toBe(statuses.length - 1);
    await again.close();
  });
});
