import { describe, expect, it } from 'vitest';
import { loadContract } from '../../src/contract/load-contract.js';
import { inferResources } from '../../src/contract/resources/infer-resources.js';
import { sampleValue } from '../../src/conformance/cases/generate/sample-value.js';
import { blockingCheckIds } from './run-cli.js';
import { useCrudServer } from './use-crud-server.js';

// A resource whose representation is a oneOf of variants (cats and dogs under /animals): its id, create and
// updates are read through the alternatives, and a create sends one variant whole.
const POLYMORPHIC = 'test/contracts/polymorphic/openapi.yaml';

const KINDS = 'auth,effects,http,ids,invalid-bodies,pagination,parameters,valid-bodies';
const { runAgainst, failsEach } = useCrudServer(['--generate', KINDS, '--seed', '1', '-r', 'json']);

describe('a contract whose resource is a oneOf of allOf variants', async () => {
  const contract = await loadContract(POLYMORPHIC);

  it('infers the resource with its id, and sends a create body of the first variant', () => {
    const animals = inferResources(contract).resources.find((r) => r.collectionPath === '/animals');
    expect(animals?.stateless).toBeFalsy();
    expect(animals?.id?.name).toBe('id');
    const create = contract.operations.find((o) => o.operationId === 'createAnimal');
    expect(sampleValue(create?.requestBody?.contents[0]?.schema)).toEqual({ name: 'sample', kind: 'cat' });
  });

  it('passes a correct server (exit 0)', async () => {
    const run = await runAgainst(POLYMORPHIC);
    expect(blockingCheckIds(await run.report()), run.out).toEqual([]);
    expect(run.code, run.out).toBe(0);
  });

  failsEach([
    { contract: POLYMORPHIC, breakage: 'delete-does-nothing', check: 'deleted-is-gone' },
    { contract: POLYMORPHIC, breakage: 'patch-replaces', check: 'update-took-effect' },
  ]);
});
