import { describe, expect, it } from 'vitest';
import { loadContract } from '../../contract/load-contract.js';
import { inferResources } from '../../contract/resources/infer-resources.js';
import { recordStoreOptions } from './record-store-options.js';

const limits = { maxRecords: 10 };

describe('recordStoreOptions', () => {
  it('keeps each stateful resource by its id, of its kind, indexed by its filters; none for a stateless one', async () => {
    const model = inferResources(await loadContract('test/contracts/library-api/openapi.yaml'));
    const options = Object.fromEntries(model.resources.map((r) => [r.key, recordStoreOptions(r, limits)]));
    expect(options['/authors']).toEqual({ ...limits, name: 'authors', idField: 'id', idKind: 'uuid', indexFields: ['country'] });
    expect(options['/authors/{}/books']).toEqual({
      ...limits,
      name: 'books',
      idField: 'isbn',
      idKind: 'string',
      // Drawn from the isbn's pattern, where a create names none.
      freshId: expect.any(Function),
      indexFields: ['genre'],
    });
    expect(options['/authors/{}/books']?.freshId?.()).toMatch(/^[0-9-]{10,17}$/);
    expect(options['/stats']).toBeUndefined();
  });

  it('gives the Pet Store integer ids and a status index, and messages no store', async () => {
    const model = inferResources(await loadContract('openapi.yaml'));
    const [pets, messages] = model.resources.map((r) => recordStoreOptions(r, limits));
    expect(pets).toEqual({ ...limits, name: 'pets', idField: 'id', idKind: 'integer', indexFields: ['status'] });
    expect(messages).toBeUndefined();
  });
});
