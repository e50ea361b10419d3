import { readdirSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { createMockServer, type MockServer } from '../../src/mock/create-mock-server.js';
import { blockingCheckIds, runCli } from './run-cli.js';

// The toolkit's two halves on each contract the tests keep (evolved, restyled, another API): the mock is a correct
// server of its contract, so the runner's default run against it (scenario files and every generated kind) passes.
const CONTRACTS = [
  'openapi.yaml',
  'test/contracts/evolved-petstore/openapi.yaml',
  'test/contracts/library-api/openapi.yaml',
  'test/contracts/same-segment/openapi.yaml',
  'test/contracts/stateless-posts/openapi.yaml',
  'test/contracts/client-named-ids/openapi.yaml',
  'test/contracts/upsert/openapi.yaml',
  'test/contracts/references/openapi.yaml',
  'test/contracts/references-by-convention/openapi.yaml',
  'test/contracts/server-fields/openapi.yaml',
  'test/contracts/api-key/openapi.yaml',
  'test/contracts/accounts/openapi.yaml',
  'test/contracts/envelope/openapi.yaml',
  'test/contracts/polymorphic/openapi.yaml',
  'test/contracts/conditional/openapi.yaml',
  'test/contracts/category-tree/openapi.yaml',
  ...readdirSync('test/contracts/styles').map((style) => `test/contracts/styles/${style}/openapi.yaml`),
];

let mock: MockServer | undefined;
afterEach(async () => {
  await mock?.close();
  mock = undefined;
});

describe('the runner against the mock, on every test contract', () => {
  it.each(CONTRACTS)('%s: every case passes (exit 0)', async (contract) => {
    // Not startMock: its self-check holds answers to openapi.yaml's deliberate deviations, and these are other contracts.
    mock = await createMockServer({ contract, port: 0, host: '127.0.0.1', log: () => {} });
    const run = await runCli(['--target', mock.url, '--contract', contract, '--seed', '1', '-r', 'json']);
    const report = await run.report();
    expect(blockingCheckIds(report), run.out).toEqual([]);
    expect(run.code, run.out).toBe(0);
    expect(report.scenarios.length).toBeGreaterThan(200);
  });
});
