import { describe, expect, it } from 'vitest';
import { loadContract } from '../../contract/load-contract.js';
import { inferResources } from '../../contract/resources/infer-resources.js';
import { readStoreQuery } from './read-store-query.js';

async function listOf(file: string, key: string) {
  const contract = await loadContract(file);
  const resource = inferResources(contract).resources.find((r) => r.key === key);
  const list = contract.byId.get(resource?.operations.find((o) => o.kind === 'list')?.operationId ?? '');
  if (!resource || !list) throw new Error(`no list of ${key}`);
  return (query: string) => readStoreQuery(resource, list, Object.fromEntries(new URLSearchParams(query)));
}

describe('readStoreQuery', () => {
  it('reads limit (else its declared default), offset, and filters as their field types', async () => {
    const orders = await listOf('test/contracts/evolved-petstore/openapi.yaml', '/store/orders');
    expect(orders('')).toEqual({ limit: 20, offset: 0 });
    expect(orders('limit=5&offset=10&petId=7&status=placed&other=1')).toEqual({
      limit: 5,
      offset: 10,
      filters: { petId: 7, status: 'placed' },
    });
    expect(orders('petId=9223372036854775807').filters).toEqual({ petId: 9223372036854775807n });
  });

  it('turns a page number into an offset, and a cursor into the place it stands for; no default page size is the largest allowed', async () => {
    const authors = await listOf('test/contracts/library-api/openapi.yaml', '/authors');
    expect(authors('page=3&per_page=10')).toMatchObject({ limit: 10, offset: 20 });
    const books = await listOf('test/contracts/library-api/openapi.yaml', '/authors/{}/books');
    // limit has no default there: its maximum, the largest page the contract allows.
    expect(books('cursor=40')).toEqual({ limit: 100, offset: 0, before: 40 });
  });

  it('refuses a cursor it did not hand out with invalid_parameter', async () => {
    const books = await listOf('test/contracts/library-api/openapi.yaml', '/authors/{}/books');
    expect(() => books('cursor=abc')).toThrow(expect.objectContaining({ code: 'invalid_parameter' }));
  });
});
