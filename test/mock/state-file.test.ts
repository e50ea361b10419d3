import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
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
    expect(JSON.parse(text)).toEqual({ version: 1, stores: { '': [{ id: 1, name: 'Soon', categoryId: 1, status: 'available' }] } });
    await mock.close();
  });

  it('refuses to start (exit 2) when the state file cannot be written, rather than losing the pets at exit', async () => {
    const stateFile = join(dir, 'no-such-folder', 'state.json');
    const { code, stderr } = await spawnBin('petstore-mock', ['--port', '0', '--state-file', stateFile]).exited;
    expect(code).toBe(2);
    expect(stderr).toContain(`Failed to write state file ${stateFile}: ENOENT`);
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
    ['a pet that breaks the schema', '{"version":1,"stores":{"":[{"id":1,"name":5,"categoryId":1}]}}'],
    ['nested 100,000 deep', `{"version":1,"stores":{"":${'['.repeat(100_000)}${']'.repeat(100_000)}}}`],
  ])('stops start-up with exit 2 naming a state file that holds %s', async (_, text) => {
    const stateFile = join(dir, `bad-${text.length}.json`);
    await writeFile(stateFile, text);
    const { code, stderr } = await spawnBin('petstore-mock', ['--port', '0', '--state-file', stateFile]).exited;
    expect(code).toBe(2);
    expect(stderr).toContain(`Failed to load state file ${stateFile}: `);
    expect(await readFile(stateFile, 'utf8')).toBe(text);
  });
});
