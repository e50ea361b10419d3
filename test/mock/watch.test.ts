import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse, stringify } from 'yaml';
import { defaultContractPath } from '../../src/contract/load-contract.js';
import { call } from '../support/http.js';
import { startMock } from '../support/start-mock.js';

async function until(check: () => Promise<boolean>): Promise<void> {
  for (let i = 0; i < 100; i++) {
    if (await check()) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error('the change was not picked up within 10 s');
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
    await until(async () => lines.some((line) => line.startsWith(`petstore-mock: kept the previous contract: Failed to read ${file}: line 3`)));
    expect((await call(mock.url, 'GET', '/store/orders')).status).toBe(200);
    expect((await call(mock.url, 'GET', '/pets?limit=1')).status).toBe(200);
  });
});
