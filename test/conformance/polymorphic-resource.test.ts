import { describe, expect, it } from 'vitest';
import { generateCases } from '../../src/conformance/cases/generate/generate-cases.js';
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

  it('asks the list for each kind, an array of enum values, and sends no empty kind (an empty array) as invalid', () => {
    const { cases } = generateCases(contract, { seed: 1, token: 'k', kinds: undefined, maxCases: undefined });
    const ids = cases.map((c) => c.id);
    expect(ids).toEqual(expect.arrayContaining(['pagination/listAnimals/kind-cat', 'parameters/listAnimals/kind/enum-unknown']));
    expect(ids).not.toContain('parameters/listAnimals/kind/empty');
  });

  it('passes a correct server (exit 0)', async () => {
    const run = await runAgainst(POLYMORPHIC);
    expect(blockingCheckIds(await run.report()), run.out).toEqual([]);
    expect(run.code, run.out).toBe(0);
  });

  failsEach([
    { contract: POLYMORPHIC, breakage: 'delete-does-nothing', check: 'deleted-is-gone' },
    { contract: POLYMORPHIC, breakage: 'patch-replaces', check: 'update-took-effect' },
    { contract: POLYMORPHIC, breakage: 'ignores-enum-filter', check: 'list-within-query' },
  ]);
});
