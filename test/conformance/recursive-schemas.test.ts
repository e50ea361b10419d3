import { afterEach, describe, expect, it } from 'vitest';
import { generateCases } from '../../src/conformance/cases/generate/generate-cases.js';
import { loadContract } from '../../src/contract/load-contract.js';
import { createMockServer, type MockServer } from '../../src/mock/create-mock-server.js';
import { blockingCheckIds, runCli } from './run-cli.js';
import { type Broken, useCrudServer } from './use-crud-server.js';

// Schemas that refer to themselves (docs/reference/contracts.md): a category tree whose subcategories hold their own,
// a rule whose clauses hold rules (mutual), a label whose next label is its own file (split files).
const TREE = 'test/contracts/category-tree/openapi.yaml';

// The kinds that send bodies and read records back (the test server reads any body as JSON: no media-types).
const KINDS = 'valid-bodies,invalid-bodies,parameters,pagination,ids,effects';
const { runAgainst, failsEach } = useCrudServer(['--generate', KINDS, '--seed', '1', '-r', 'json']);

describe('the runner on a contract of recursive schemas', () => {
  it('generates bodies that nest each recursion a bounded number of times, all valid', async () => {
    const contract = await loadContract(TREE);
    const { cases, notMade } = generateCases(contract, { seed: 1, token: 'k', kinds: undefined, maxCases: undefined });
    // A chain requires its next link: no finite chain is valid, and the cases that would send one are said, not sent.
    const endless = notMade.filter((n) => n.reason.includes('contains itself'));
    expect(endless.map((n) => n.reason)).toEqual([
      'body.next.next.next.next.next: a required property whose schema contains itself again at every depth, so no finite value is valid',
    ]);
    expect(endless[0]?.cases).toContain('valid-bodies/createChain/required-fields-only');
    const create = contract.byId.get('createCategory')?.requestBody?.contents[0];
    const bodies = cases.flatMap((c) =>
      c.steps.filter((s) => s.operation.operationId === 'createCategory' && s.expect?.status?.includes(201)).map((s) => s.body),
    );
    const values = bodies.flatMap((b) => (b?.kind === 'json' && typeof b.value === 'object' ? [b.value] : []));
    expect(values.length).toBeGreaterThan(5);
    for (const value of values) expect(create?.validate?.(value), JSON.stringify(value)).toEqual([]);
    // The fullest body nests a subcategory in a subcategory, a rule in a rule's clause and a label in a label.
    const full = values.find((v) => JSON.stringify(v).includes('"nested"')) as Record<string, never>;
    expect(full).toMatchObject({
      children: [{ children: [{ name: expect.any(String) }] }],
      rule: { clauses: [{ nested: { match: 'all' } }] },
      label: { next: { next: { text: expect.any(String) } } },
    });
    expect(JSON.stringify(full).length).toBeLessThan(2000);
  });

  it('passes a correct server (exit 0)', async () => {
    const run = await runAgainst(TREE);
    const report = await run.report();
    expect(blockingCheckIds(report), run.out).toEqual([]);
    expect(run.code, run.out).toBe(0);
    expect(report.scenarios.filter((s) => s.id.startsWith('invalid-bodies/createCategory')).length).toBeGreaterThan(3);
  });

  const BROKEN: readonly Broken[] = [
    { contract: TREE, breakage: 'deep-wrong-type', check: 'body-schema' },
    { contract: TREE, breakage: 'replace-drops-children', check: 'update-took-effect' },
  ];
  failsEach(BROKEN);
});

describe('the runner against the mock on a contract of recursive schemas', () => {
  let mock: MockServer | undefined;
  afterEach(async () => {
    await mock?.close();
    mock = undefined;
  });

  it('passes every case (exit 0)', async () => {
    mock = await createMockServer({ contract: TREE, fixtures: false, port: 0, host: '127.0.0.1', log: () => {} });
    const run = await runCli(['--target', mock.url, '--contract', TREE, '--seed', '1', '-r', 'json']);
    const report = await run.report();
    expect(blockingCheckIds(report), run.out).toEqual([]);
    expect(run.code, run.out).toBe(0);
    expect(report.scenarios.length).toBeGreaterThan(200);
  });
});
