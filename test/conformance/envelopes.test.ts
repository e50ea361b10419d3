import { describe, expect, it } from 'vitest';
import { loadContract } from '../../src/contract/load-contract.js';
import { describeResources } from '../../src/contract/resources/describe-resources.js';
import { inferResources } from '../../src/contract/resources/infer-resources.js';
import { blockingCheckIds } from './run-cli.js';
import { useCrudServer } from './use-crud-server.js';

// Records in envelopes ({data: {...}, meta}, lists as {data: [...], meta: {total, next_cursor}}): the runner reads the
// record inside, sends its own inside the request's envelope, and holds a server to what it did to the record.
const ENVELOPE = 'test/contracts/envelope/openapi.yaml';

// Every kind but media-types: the CRUD server reads any body as JSON, whatever its Content-Type.
const KINDS = 'auth,effects,http,ids,invalid-bodies,pagination,parameters,valid-bodies';
const { runAgainst, failsEach } = useCrudServer(['--generate', KINDS, '--seed', '1', '-r', 'json']);

describe('a contract that wraps every record in an envelope', () => {
  it('says where the record sits, for --verbose', async () => {
    const lines = describeResources(inferResources(await loadContract(ENVELOPE)));
    expect(lines).toContain('  create createCustomer POST /customers; record sent in data; record answered in data');
    expect(lines).toContain('  get getCustomer GET /customers/{customerId}; record answered in data');
    expect(lines.find((line) => line.includes('listCustomers'))).toMatch(/records in data$/);
  });

  it('passes a correct server, and cleans up what it created (exit 0)', async () => {
    const run = await runAgainst(ENVELOPE);
    const report = await run.report();
    expect(blockingCheckIds(report), run.out).toEqual([]);
    expect(run.code, run.out).toBe(0);
    expect(report.scenarios.filter((s) => s.id.startsWith('effects/')).length).toBeGreaterThan(5);
    expect(report.cleanup?.failed).toBe(0);
    expect(run.out).not.toMatch(/left on the target/);
  });

  failsEach([
    { contract: ENVELOPE, breakage: 'update-ignored', check: 'update-took-effect' },
    { contract: ENVELOPE, breakage: 'deleted-still-listed', check: 'deleted-is-gone' },
  ]);
});
