import { describe, expect, it } from 'vitest';
import { generateCases } from '../../src/conformance/cases/generate/generate-cases.js';
import { loadContract } from '../../src/contract/load-contract.js';
import { blockingCheckIds } from './run-cli.js';
import { useCrudServer } from './use-crud-server.js';

// Shapes the Pet Store lacks (the contract's description): a correct server of each must pass, a broken one fail.
const TRACKER = 'test/contracts/tracker/openapi.yaml';

// Every kind but media-types: the CRUD server reads any body as JSON, whatever its Content-Type.
const KINDS = 'auth,conditional,effects,http,ids,invalid-bodies,pagination,parameters,valid-bodies';
const { runAgainst, failsEach } = useCrudServer(['--generate', KINDS, '--seed', '1', '-r', 'json']);

describe('a contract with nested lists, a required If-Match and a create answered by its Location alone', async () => {
  const contract = await loadContract(TRACKER);
  const { cases } = generateCases(contract, { seed: 1, token: 'k', kinds: undefined, maxCases: undefined });
  const byId = (id: string) => cases.find((c) => c.id === id);

  it('reads a nested list by a parameter under a parent the case created, not the example parent', () => {
    const above = byId('parameters/listTasks/limit/above-maximum');
    expect(above?.steps.map((s) => s.operation.operationId)).toEqual(['createProject', 'listTasks']);
    expect(above?.steps[1]?.path).toEqual({ projectId: `{{${above?.steps[0]?.capture}.body.id}}` });
  });

  it('creates under a parent no one has, within its pattern, and other than the example the case binds', () => {
    const orphan = byId('effects/createTask/parent-scoped');
    const sent = orphan?.steps.at(-1)?.path.projectId;
    expect(orphan?.steps.map((s) => s.operation.operationId)).toEqual(['createTask']);
    expect(sent).toMatch(/^prj_[0-9a-z]{10}$/);
    expect(sent).not.toBe('prj_0123456789');
  });

  it('sends the required If-Match as *, and takes a note id from the Location of a create without a body', () => {
    const put = byId('effects/replaceTask/update-took-effect')?.steps.find((s) => s.operation.operationId === 'replaceTask');
    expect(put?.headers).toEqual(expect.objectContaining({ 'if-match': '*' }));
    const create = byId('effects/createNote/created-readable')?.steps[0];
    expect(create?.locationId).toEqual({ field: 'id', numeric: true });
  });

  it('passes a correct server of every such shape, and cleans up what it created, nested records too (exit 0)', async () => {
    const run = await runAgainst(TRACKER);
    const report = await run.report();
    expect(blockingCheckIds(report), run.out).toEqual([]);
    expect(run.code, run.out).toBe(0);
    expect(report.cleanup?.failed).toBe(0);
    expect(report.created?.every((c) => c.deletable)).toBe(true);
    expect(run.out).not.toMatch(/left on the target/);
  });

  failsEach([
    { contract: TRACKER, breakage: 'orphan-create', check: 'parent-scoped' },
    // The note's id is read from its Location alone: one naming another note leaves the created one unread.
    { contract: TRACKER, breakage: 'location-other-id', check: 'created-readable' },
  ]);
});
