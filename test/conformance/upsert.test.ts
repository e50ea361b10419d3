import { afterEach, describe, expect, it } from 'vitest';
import { createMockServer, type MockServer } from '../../src/mock/create-mock-server.js';
import { call } from '../support/http.js';
import { generateCases } from '../../src/conformance/cases/generate/generate-cases.js';
import { loadContract } from '../../src/contract/load-contract.js';
import { blockingCheckIds, runCli } from './run-cli.js';
import { type Broken, useCrudServer } from './use-crud-server.js';

// Records made by PUT at an id the client chooses, with no POST (docs/reference/resources.md rule 11): buckets keyed
// by a patterned name, and objects nested in them.
const UPSERT = 'test/contracts/upsert/openapi.yaml';

const { runAgainst, failsEach } = useCrudServer(['--generate', 'effects', '--seed', '1', '-r', 'json']);

describe('effect cases of a resource made by PUT', () => {
  it('write only at ids the run drew, within the pattern, none of them an example, none shared by two cases', async () => {
    const contract = await loadContract(UPSERT);
    const { cases } = generateCases(contract, { seed: 1, token: 'k', kinds: ['effects'], maxCases: undefined });
    const ids = cases.map((c) => c.id);
    expect(ids).toEqual(
      expect.arrayContaining([
        'effects/putBucket/created-readable',
        'effects/putBucket/update-took-effect',
        'effects/putBucket/put-replaces',
        'effects/deleteBucket/deleted-is-gone',
        'effects/putObject/created-readable',
        'effects/getObject/parent-scoped',
        'effects/getObject/gone-with-parent',
        'effects/putObject/parent-scoped',
        'effects/putSlot/created-readable',
        'effects/putSlot/update-took-effect',
        'effects/deleteSlot/deleted-is-gone',
      ]),
    );
    const puts = cases.flatMap((c) => c.steps.filter((s) => s.operation.method === 'PUT').map((s) => ({ c: c.id, s })));
    const names = puts.map(({ s }) => s.path.name ?? s.path.bucket);
    expect(names.filter((n) => !/^[a-z][a-z0-9-]{2,29}$/.test(String(n)))).toEqual([]);
    expect(names).not.toContain('holiday-photos');
    // No case of any kind writes at the contract's example names.
    const { cases: all, notMade } = generateCases(contract, { seed: 1, token: 'k', kinds: undefined, maxCases: undefined });
    // What is not made is said: a page of slots would be filled by a create, and there is none.
    expect(notMade.map((n) => `${n.cases}: ${n.reason}`)).toEqual([
      'pagination cases of listSlots: its records are made by PUT at ids the client chooses (rule 11), and pages are filled only by a create',
    ]);
    const writes = all.flatMap((c) => c.steps.filter((s) => s.operation.method !== 'GET').map((s) => s.path));
    expect(writes.length).toBeGreaterThan(50);
    const example = (path: Readonly<Record<string, unknown>>) =>
      [path.name, path.bucket].includes('holiday-photos') || path.key === 'report-2026.txt';
    expect(writes.filter(example)).toEqual([]);
    // The case's own bucket is made by each case at a name of its own.
    const firstPuts = cases.map((c) => c.steps.find((s) => s.operation.operationId === 'putBucket')?.path.name);
    const made = firstPuts.filter((n) => n !== undefined);
    expect(new Set(made).size).toBe(made.length);
  });

  const notes = (report: { scenarios: readonly { observations: readonly { status: unknown; note: string }[] }[] }) =>
    report.scenarios.flatMap((s) => s.observations.map((o) => `${o.status} ${o.note}`));

  it('pass a correct server (exit 0), with nothing to note of its 201s', async () => {
    const run = await runAgainst(UPSERT);
    const report = await run.report();
    expect(blockingCheckIds(report), run.out).toEqual([]);
    expect(run.code, run.out).toBe(0);
    const effects = report.scenarios.filter((s) => s.id.startsWith('effects/put'));
    expect(effects.length).toBeGreaterThan(3);
    expect(effects.every((s) => s.outcome === 'passed')).toBe(true);
    expect(notes(report).filter((n) => n.includes('where 201 is documented'))).toEqual([]);
  });

  it('observe a PUT that made a record and answered 200 where 201 is documented, and pass it', async () => {
    const run = await runAgainst(UPSERT, 'put-creates-200');
    expect(run.code, run.out).toBe(0);
    expect(notes(await run.report())).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^200 putBucket made a record at an id of the run's own and answered 200, where 201 is documented/),
      ]),
    );
  });

  const BROKEN: readonly Broken[] = [
    { contract: UPSERT, breakage: 'put-stores-nothing', check: 'created-readable' },
    { contract: UPSERT, breakage: 'put-duplicates', check: 'ids-unique-in-list' },
    { contract: UPSERT, breakage: 'put-ignores-path-id', check: 'created-readable' },
    { contract: UPSERT, breakage: 'put-merges', check: 'put-replaces' },
  ];

  failsEach(BROKEN);
});

describe('the runner against the mock on a contract of PUTs that create', () => {
  let mock: MockServer | undefined;
  afterEach(async () => {
    await mock?.close();
    mock = undefined;
  });

  it('passes, counts the records it made by PUT, and --cleanup leaves none behind', async () => {
    mock = await createMockServer({ contract: UPSERT, fixtures: false, port: 0, host: '127.0.0.1', log: () => {} });
    const run = await runCli(['--target', mock.url, '--contract', UPSERT, '--generate', 'effects', '--seed', '2', '-r', 'json']);
    const report = await run.report();
    expect(blockingCheckIds(report), run.out).toEqual([]);
    expect(run.code, run.out).toBe(0);
    const buckets = report.created?.find((c) => c.path === '/buckets');
    expect(buckets).toMatchObject({ deletable: true });
    expect(buckets?.count).toBeGreaterThan(5);
    expect(report.cleanup?.failed).toBe(0);
    const origin = new URL(mock.url).origin;
    expect((await call(origin, 'GET', '/__admin/records?resource=/buckets')).json).toEqual([]);
  });
});
