import { copyFile, mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse, stringify } from 'yaml';
import { largeContract } from '../../bench/large-contract.js';
import { defaultContractPath } from '../../src/contract/load-contract.js';
import { defaultFixturesPath } from '../../src/mock/mock-options.js';
import { call } from '../support/http.js';
import { spawnBin } from '../support/spawn-bin.js';
import { startMock } from '../support/start-mock.js';

async function until(check: () => Promise<boolean>): Promise<void> {
  for (let i = 0; i < 300; i++) {
    if (await check()) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error('the change was not picked up within 30 s');
}

describe('--watch', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'petstore-watch-'));
  const file = join(dir, 'openapi.yaml');
  const original = await readFile(defaultContractPath(), 'utf8');
  await writeFile(file, original);
  const lines: string[] = [];
  const mock = await startMock({ contract: file, watch: true, log: (line) => lines.push(line) });

  it('serves an operation added to the contract at once, keeping the store', async () => {
    const created = await call(mock.url, 'POST', '/pets', { body: { name: 'Kept', categoryId: 1 } });
    const id = (created.json as { id: number }).id;
    expect((await call(mock.url, 'GET', '/store/orders')).status).toBe(404);
    const document = parse(original);
    document.paths['/store/orders'] = {
      get: {
        operationId: 'listOrders',
        responses: {
          200: {
            description: 'Orders',
            content: { 'application/json': { schema: { type: 'array', items: { type: 'object' } }, example: [{ id: 7 }] } },
          },
          401: { $ref: '#/components/responses/Unauthorized' },
        },
      },
    };
    await writeFile(file, stringify(document));
    await until(async () => (await call(mock.url, 'GET', '/store/orders')).status === 200);
    expect((await call(mock.url, 'GET', '/store/orders')).json).toEqual([{ id: 7 }]);
    expect((await call(mock.url, 'GET', `/pets/${id}`)).status).toBe(200);
    expect(lines.some((line) => line.startsWith(`petstore-mock: reloaded ${file}`))).toBe(true);
  });

  it('keeps the previous contract when an edit does not load, and says why', async () => {
    await writeFile(file, 'openapi: 3.0.3\npaths: [\n');
    await until(async () =>
      lines.some((line) => line.startsWith(`petstore-mock: kept the previous contract: Failed to read ${file}: line 3`)),
    );
    expect((await call(mock.url, 'GET', '/store/orders')).status).toBe(200);
    expect((await call(mock.url, 'GET', '/pets?limit=1')).status).toBe(200);
  });
});

describe('--watch with a large contract', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'petstore-watch-large-'));
  const file = join(dir, 'openapi.yaml');
  await writeFile(file, await largeContract(30));
  const events: string[] = [];
  const answers: Promise<unknown>[] = [];
  const mock = await startMock({
    contract: file,
    watch: true,
    notice: (line) => {
      if (line.startsWith('petstore-mock: compiling')) {
        events.push('compiling');
        answers.push(call(mock.url, 'GET', '/pets?limit=1').then((answer) => events.push(`answered ${answer.status}`)));
      }
      if (line.startsWith('petstore-mock: reloaded')) events.push('reloaded');
    },
  });

  it('answers a request sent while the new contract compiles before the compilation ends', async () => {
    await writeFile(file, await largeContract(30, '2.0.0'));
    await until(async () => events.includes('reloaded'));
    await Promise.all(answers);
    expect(events).toEqual(['compiling', 'answered 200', 'reloaded']);
    expect(mock.contract.version).toBe('2.0.0');
  }, 60_000);
});

describe('--watch with --state-file, when the contract stops accepting the stored records', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'petstore-watch-state-'));
  const file = join(dir, 'openapi.yaml');
  const fixtures = join(dir, 'pets.json');
  const stateFile = join(dir, 'state.json');
  const original = await readFile(defaultContractPath(), 'utf8');
  await writeFile(file, original);
  await copyFile(defaultFixturesPath(), fixtures);
  const args = ['--port', '0', '--contract', file, '--fixtures', fixtures, '--state-file', stateFile];

  it('refuses the reload naming the first record it refuses, keeps serving, and the next start sets the records aside', async () => {
    const mock = spawnBin('petstore-mock', [...args, '--watch']);
    const [, url] = (await mock.waitFor(/^PETSTORE_MOCK_URL=(\S+)$/m)) as [string, string];
    let stderr = '';
    mock.child.stderr?.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    // The stores are checked in creation order: the first fixture comes first.
    const first = (JSON.parse(await readFile(fixtures, 'utf8')) as { id: number }[])[0] as { id: number };
    expect((await call(url, 'POST', '/pets', { body: { name: 'Stored', categoryId: 1 } })).status).toBe(201);
    // Read in a worker thread by the built mock: its failures are told as they are on this thread.
    await writeFile(file, 'openapi: 3.0.3\npaths: [\n');
    await until(async () => stderr.includes(`kept the previous contract: Failed to read ${file}: line 3`));
    const document = parse(original);
    document.components.schemas.Pet.properties.tag = { type: 'string' };
    document.components.schemas.Pet.required.push('tag');
    await writeFile(file, stringify(document));
    await until(async () => stderr.includes('does not accept'));
    expect(stderr).toContain(
      `petstore-mock: kept the previous contract: ${file} does not accept record 1 of /pets in the default store (id ${first.id}): tag: is required.`,
    );
    expect(stderr).toContain('restart the mock');
    const listed = await call(url, 'GET', '/pets?limit=100');
    expect(listed.status).toBe(200);
    expect((listed.json as { name: string }[]).map((pet) => pet.name)).toContain('Stored');
    mock.child.kill('SIGTERM');
    expect((await mock.exited).code).toBe(0);

    const next = spawnBin('petstore-mock', args);
    const [, nextUrl] = (await next.waitFor(/^PETSTORE_MOCK_URL=(\S+)$/m)) as [string, string];
    expect((await call(nextUrl, 'GET', '/pets')).status).toBe(200);
    next.child.kill('SIGTERM');
    const { code, stderr: nextStderr } = await next.exited;
    expect(code).toBe(0);
    expect(nextStderr).toContain(`state file ${stateFile}: `);
    expect(nextStderr).toContain('(the first, line 3: tag: is required)');
  }, 60_000);
});
