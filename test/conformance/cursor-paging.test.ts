import { afterEach, describe, expect, it } from 'vitest';
import { createMockServer, type MockServer } from '../../src/mock/create-mock-server.js';
import { runCli } from './run-cli.js';
import { useCrudServer } from './use-crud-server.js';

// listBooks pages by `cursor`, and its answer carries the next one in `next` ({ items, next }).
const LIBRARY = 'test/contracts/library-api/openapi.yaml';
const ARGS = ['--generate', 'pagination', '--case', 'pagination/listBooks/*', '--seed', '1', '-r', 'json'];

const { runAgainst, failsEach } = useCrudServer(ARGS);

let mock: MockServer | undefined;
afterEach(async () => {
  await mock?.close();
  mock = undefined;
});

describe('a cursor-paged list walked by the cursors its answers carry', () => {
  it('passes a correct server of its own cursors, having read every page with the cursor before it', async () => {
    const run = await runAgainst(LIBRARY);
    expect(run.code, run.out).toBe(0);
    const walk = (await run.report()).scenarios.find((s) => s.id === 'pagination/listBooks/cursor-walk');
    expect(walk?.outcome, run.out).toBe('passed');
    const pages = walk?.exchanges.filter((e) => e.url.includes('limit=2')) ?? [];
    expect(pages.length).toBe(3);
    expect(pages.slice(1).every((e) => /[?&]cursor=[A-Za-z0-9_-]+/.test(e.url))).toBe(true);
  });

  it('passes the mock, which hands out its own cursors from the same resource-model rule', async () => {
    mock = await createMockServer({ contract: LIBRARY, port: 0, host: '127.0.0.1', log: () => {} });
    const run = await runCli(['--target', mock.url, '--contract', LIBRARY, ...ARGS]);
    expect(run.code, run.out).toBe(0);
    const walk = (await run.report()).scenarios.find((s) => s.id === 'pagination/listBooks/cursor-walk');
    expect(walk?.outcome, run.out).toBe('passed');
    expect(walk?.exchanges.filter((e) => e.url.includes('cursor=')).length).toBe(2);
  });

  failsEach([{ contract: LIBRARY, breakage: 'ignores-cursor', check: 'cursor-walk' }]);
});
