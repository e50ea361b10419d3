import { describe, expect, it } from 'vitest';
import { generateCases } from '../../src/conformance/cases/generate/generate-cases.js';
import { loadContract } from '../../src/contract/load-contract.js';
import { blockingCheckIds } from './run-cli.js';
import { type Broken, useCrudServer } from './use-crud-server.js';

// Resources whose id the client names: a book's ISBN (nested, a wrapped list) and a stock item's SKU (a pattern, a
// bare list with a page size and filters).
const LIBRARY = 'test/contracts/library-api/openapi.yaml';
const STOCK = 'test/contracts/client-named-ids/openapi.yaml';

const { runAgainst, failsEach } = useCrudServer(['--generate', 'ids,pagination,effects', '--seed', '1', '-r', 'json']);

describe('cases for an id the client names', () => {
  it('are generated: pagination with a fresh id on every filler create, and the client-named-id case', async () => {
    const contract = await loadContract(STOCK);
    const { cases, notMade } = generateCases(contract, {
      seed: 1,
      token: 'k',
      kinds: ['pagination', 'ids'],
      maxCases: undefined,
    });
    const ids = cases.map((c) => c.id);
    expect(ids).toEqual(
      expect.arrayContaining([
        'pagination/listItems/limit-maximum',
        'pagination/listItems/category-tools',
        'ids/createItem/client-named-id',
        'ids/createItem/stored-once',
      ]),
    );
    // Every create of the run's pagination cases names an SKU of its own, each valid against the id's pattern.
    const skus = cases
      .filter((c) => c.id.startsWith('pagination/listItems/'))
      .flatMap((c) => c.steps.filter((s) => s.operation.operationId === 'createItem'))
      .flatMap((s) => (s.repeat?.each ?? [s.body?.kind === 'json' ? s.body.value : undefined]) as { sku: string }[])
      .map((body) => body.sku);
    expect(skus.length).toBeGreaterThan(40);
    expect(new Set(skus).size).toBe(skus.length);
    expect(skus.filter((sku) => !/^[A-Z]{3}-[0-9]{6}$/.test(sku))).toEqual([]);
    // Only what does not apply to a name the client chooses is said not to be made, and why.
    expect(notMade.filter((n) => n.operationId === 'createItem' || n.operationId === 'listItems')).toEqual([
      expect.objectContaining({
        cases: 'ids cases of createItem (concurrent-burst, client-sent-id)',
        reason: expect.stringMatching(/sku is named by the client, not assigned by the service/),
      }),
    ]);
  });

  it('are generated for books: nested under an author the case creates, wrapped in a page object', async () => {
    const contract = await loadContract(LIBRARY);
    const { cases, notMade } = generateCases(contract, {
      seed: 1,
      token: 'k',
      kinds: ['pagination', 'ids'],
      maxCases: undefined,
    });
    expect(cases.map((c) => c.id)).toEqual(
      expect.arrayContaining([
        'pagination/listBooks/limit-maximum',
        'pagination/listBooks/genre-novel',
        'ids/addBook/client-named-id',
      ]),
    );
    const full = cases.find((c) => c.id === 'pagination/listBooks/limit-maximum');
    const [owner, ...steps] = full?.steps ?? [];
    expect(owner?.operation.operationId).toBe('createAuthor');
    expect(owner?.setup).toBe(true);
    expect(steps.map((s) => s.path.authorId)).toEqual(steps.map(() => '{{bound0.body.id}}'));
    expect(steps.at(-1)?.expect).toMatchObject({ bodyLength: { equals: 100 }, listAt: ['items'] });
    expect(steps.find((s) => s.repeat?.less)?.repeat?.less).toBe('{{before.body.items}}');
    // The marks are looked for at the list's pointer too: only what is about an assigned id is not made.
    expect(cases.map((c) => c.id)).toContain('ids/addBook/stored-once');
    expect(notMade.filter((n) => n.operationId === 'listBooks' || n.operationId === 'addBook')).toEqual([
      expect.objectContaining({ cases: 'ids cases of addBook (concurrent-burst, client-sent-id)' }),
    ]);
  });

  it.each([LIBRARY, STOCK])('pass a correct server of %s (exit 0)', async (contract) => {
    const run = await runAgainst(contract);
    const report = await run.report();
    expect(blockingCheckIds(report), run.out).toEqual([]);
    expect(run.code, run.out).toBe(0);
    const named = report.scenarios.filter((s) => s.id.endsWith('/client-named-id'));
    expect(named.length).toBeGreaterThan(0);
    expect(named.every((s) => s.outcome === 'passed')).toBe(true);
  });

  it('observe a create of a taken id that replaces the record, and pass it: the contract does not say', async () => {
    const run = await runAgainst(STOCK, 'taken-id-replaces');
    expect(run.code, run.out).toBe(0);
    const report = await run.report();
    const notes = report.scenarios.flatMap((s) => s.observations.map((o) => `${o.status} ${o.note}`));
    expect(notes).toEqual(
      expect.arrayContaining([expect.stringMatching(/^201 createItem was sent sku [A-Z]{3}-\d{6} a second time/)]),
    );
  });

  const BROKEN: readonly Broken[] = [
    { contract: LIBRARY, breakage: 'taken-id-stored-twice', check: 'ids-unique-in-list' },
    { contract: STOCK, breakage: 'taken-id-stored-twice', check: 'ids-unique-in-list' },
    { contract: LIBRARY, breakage: 'refused-create-overwrites', check: 'refusal-leaves-no-trace' },
    { contract: STOCK, breakage: 'client-id-replaced', check: 'created-readable' },
    { contract: STOCK, breakage: 'ignores-limit', check: 'body-expected' },
    { contract: LIBRARY, breakage: 'ignores-limit', check: 'body-expected' },
    { contract: LIBRARY, breakage: 'create-stored-twice', check: 'stored-once' },
    { contract: STOCK, breakage: 'offset-skips-one', check: 'page-advances' },
    { contract: STOCK, breakage: 'ignores-text-filter', check: 'list-within-query' },
    { contract: LIBRARY, breakage: 'nested-list-any-parent', check: 'cursor-walk' },
  ];

  failsEach(BROKEN);
});
