import { describe, expect, it } from 'vitest';
import { generateCases } from '../../src/conformance/cases/generate/generate-cases.js';
import { loadContract } from '../../src/contract/load-contract.js';
import { blockingCheckIds } from './run-cli.js';
import { useCrudServer } from './use-crud-server.js';

// Header promises (the contract's description): a correct server must pass, one that breaks a promise fail.
const CONDITIONAL = 'test/contracts/conditional/openapi.yaml';

// Every kind but media-types: the CRUD server reads any body as JSON, whatever its Content-Type.
const KINDS = 'auth,conditional,effects,http,ids,invalid-bodies,pagination,parameters,valid-bodies';
const { runAgainst, failsEach } = useCrudServer(['--generate', KINDS, '--seed', '1', '-r', 'json']);

describe('a contract that promises 304s, 412s, a required If-Match and a total count', async () => {
  const contract = await loadContract(CONDITIONAL);
  const { cases } = generateCases(contract, { seed: 1, token: 'k', kinds: ['conditional'], maxCases: undefined });
  const ids = cases.map((c) => c.id);

  it('makes a case of each promise the contract makes, and none of one it does not', () => {
    expect(ids).toEqual(
      expect.arrayContaining([
        'conditional/getDocument/not-modified',
        'conditional/replaceDocument/etag-changes',
        'conditional/replaceDocument/precondition-enforced',
        'conditional/updateDocument/precondition-enforced',
        'conditional/deleteDocument/precondition-enforced',
        // ETag without a 304: the tag must still change with the record.
        'conditional/replaceLabel/etag-changes',
      ]),
    );
    expect(ids).not.toContain('conditional/getLabel/not-modified');
    expect(ids).not.toContain('conditional/replaceLabel/precondition-enforced');
  });

  it('sends a stale tag, then the tag read back; a required If-Match is left out first, for its 428', () => {
    const remove = cases.find((c) => c.id === 'conditional/deleteDocument/precondition-enforced');
    const sent = remove?.steps.filter((s) => s.operation.operationId === 'deleteDocument').map((s) => s.headers['if-match']);
    expect(sent).toEqual([undefined, '"conformance-stale-{{run.id}}"', '{{current.headers.etag}}']);
  });

  it('passes a correct server (exit 0)', async () => {
    const run = await runAgainst(CONDITIONAL);
    const report = await run.report();
    expect(blockingCheckIds(report), run.out).toEqual([]);
    expect(run.code, run.out).toBe(0);
    // Its records are deleted with `If-Match: *`, which its DELETE requires.
    expect(report.cleanup?.failed).toBe(0);
    const conditional = report.scenarios.filter((s) => s.kind === 'conditional');
    expect(conditional.map((s) => [s.id, s.outcome, s.skipReason])).toEqual(conditional.map((s) => [s.id, 'passed', undefined]));
    expect(conditional.length).toBeGreaterThanOrEqual(6);
    // The 304 and the 412s came: each promise was seen kept, not passed for want of an answer.
    const statuses = conditional.flatMap((s) => s.exchanges.map((e) => e.status));
    expect(statuses).toEqual(expect.arrayContaining([304, 412, 428]));
  });

  failsEach([
    { contract: CONDITIONAL, breakage: 'ignores-if-none-match', check: 'not-modified' },
    { contract: CONDITIONAL, breakage: 'etag-cache-stale', check: 'etag-changes' },
    { contract: CONDITIONAL, breakage: 'etag-of-id', check: 'etag-changes' },
    { contract: CONDITIONAL, breakage: 'ignores-if-match', check: 'precondition-enforced' },
    { contract: CONDITIONAL, breakage: 'total-count-unfiltered', check: 'total-count' },
    // The page's length: seen on the first of two pages of the case's own 4 records (effects' page-advances case).
    { contract: CONDITIONAL, breakage: 'total-count-of-page', check: 'total-count' },
  ]);
});
