import { readdirSync } from 'node:fs';
import { afterEach, expect, it } from 'vitest';
import { createMockServer, type MockServer } from '../../src/mock/create-mock-server.js';
import { blockingCheckIds, runCli } from './run-cli.js';

/** The contracts the tests keep (evolved, restyled, another API), run in mock-passes-every-contract.test.ts. */
export const FIRST_CONTRACTS: readonly string[] = [
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

/** The rest of test/contracts, run in mock-passes-more-contracts.test.ts beside the first, so the two run in parallel. */
export const MORE_CONTRACTS: readonly string[] = [
  'async-exports',
  'device-labels',
  'drf-snippets',
  'form-bodies',
  'hal-orders',
  'jsonapi-articles',
  'kratos-articles',
  'optional-object',
  'org-teams',
  'posts-only',
  'repo-issues',
  'silent-creates',
  'singletons',
  'store-inventory',
  'stripe-customers',
  'tracker',
  'unbounded-page',
  'uploads',
  'webhook-subscriptions',
  'workspace-tasks',
  'write-only',
].map((name) => `test/contracts/${name}/openapi.yaml`);

/**
 * A test for each contract: the mock started on it is a correct server of it, so the runner's default run against
 * it (scenario files and every generated kind) passes, with at least `minimumCases` cases.
 */
export function mockPassesEach(contracts: readonly string[], minimumCases: number): void {
  let mock: MockServer | undefined;
  afterEach(async () => {
    await mock?.close();
    mock = undefined;
  });
  it.each(contracts)('%s: every case passes (exit 0)', async (contract) => {
    // Not startMock: its self-check holds answers to openapi.yaml's deliberate deviations, and these are other contracts.
    mock = await createMockServer({ contract, port: 0, host: '127.0.0.1', log: () => {} });
    const run = await runCli(['--target', mock.url, '--contract', contract, '--seed', '1', '-r', 'json']);
    const report = await run.report();
    expect(blockingCheckIds(report), run.out).toEqual([]);
    expect(run.code, run.out).toBe(0);
    expect(report.scenarios.length).toBeGreaterThanOrEqual(minimumCases);
  });
}
