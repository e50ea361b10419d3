import { describe, expect, it } from 'vitest';
import { loadContract } from '../load-contract.js';
import { inferResources } from './infer-resources.js';
import { referencedResource } from './referenced-resource.js';
import type { Resource, ResourceModel } from './resource.js';

const CONVENTION = 'test/contracts/references-by-convention/openapi.yaml';

describe('referencedResource', () => {
  it("reads an order's petId as a reference to /pets, and categoryId, which no path names, as none", async () => {
    const model = inferResources(await loadContract('test/contracts/evolved-petstore/openapi.yaml'));
    const orders = model.resources.find((r) => r.name === 'orders');
    expect(referencedResource(model, 'petId', orders)?.collectionPath).toBe('/pets');
    expect(referencedResource(model, 'categoryId', orders)).toBeUndefined();
    expect(referencedResource(model, 'pet_id', orders)?.collectionPath).toBe('/pets');
    expect(referencedResource(model, 'PetID', orders)?.collectionPath).toBe('/pets');
    expect(referencedResource(model, 'pet', orders)).toBeUndefined();
  });

  it('reads a field by the singular of a collection whose item parameter is a plain {id}, in any spelling', async () => {
    const model = inferResources(await loadContract(CONVENTION));
    const [customers, orders, lines] = ['/customers', '/orders', '/order-lines'].map((key) =>
      model.resources.find((r) => r.key === key),
    );
    expect(referencedResource(model, 'customer_id', orders, { type: 'string', format: 'uuid' })).toBe(customers);
    expect(referencedResource(model, 'orderId', lines, { type: 'integer', format: 'int64' })).toBe(orders);
    expect(referencedResource(model, 'ORDER-ID', lines)).toBe(orders);
    // No collection of categories, and an order's or a line's own id names nothing else.
    expect(referencedResource(model, 'category_id', orders, { type: 'integer' })).toBeUndefined();
    expect(referencedResource(model, 'id', orders)).toBeUndefined();
    expect(referencedResource(model, 'id', lines)).toBeUndefined();
  });

  it('reads no reference by convention in a field that cannot hold the id: its type, its format, an enum', async () => {
    const model = inferResources(await loadContract(CONVENTION));
    const orders = model.resources.find((r) => r.key === '/orders');
    const lines = model.resources.find((r) => r.key === '/order-lines');
    expect(referencedResource(model, 'customer_id', orders, { type: 'integer' })).toBeUndefined();
    expect(referencedResource(model, 'customer_id', orders, { type: 'string', format: 'email' })).toBeUndefined();
    expect(referencedResource(model, 'orderId', lines, { type: 'string' })).toBeUndefined();
    expect(referencedResource(model, 'orderId', lines, { type: 'integer', enum: [1, 2] })).toBeUndefined();
    expect(referencedResource(model, 'orderId', lines, { type: 'number' })?.key).toBe('/orders');
  });

  it('prefers the one top-level collection of a name, and reads none where two of the same level share it', () => {
    const resource = (key: string, parent?: string): Resource => ({
      key,
      name: key.split('/').at(-1) as string,
      collectionPath: key.replaceAll('{}', '{parentId}'),
      itemPath: `${key.replaceAll('{}', '{parentId}')}/{id}`,
      parent,
      schema: { type: 'object' },
      schemaSource: 'get',
      listPointer: [],
      id: { name: 'id', source: 'id', detail: 'id', schema: { type: 'integer' } },
      serverFields: ['id'],
      operations: [],
      list: undefined,
      skipped: [],
      stateless: undefined,
    });
    const pets = resource('/pets');
    const nested = resource('/owners/{}/pets', '/owners');
    const alone: ResourceModel = { resources: [resource('/owners'), nested, pets], unplaced: [] };
    expect(referencedResource(alone, 'petId')).toBe(pets);
    const twice: ResourceModel = { resources: [nested, resource('/shops/{}/pets', '/shops')], unplaced: [] };
    expect(referencedResource(twice, 'petId')).toBeUndefined();
    expect(referencedResource({ resources: [nested], unplaced: [] }, 'petId')).toBe(nested);
  });

  it("never reads a resource's own id, or its parent's (a book's authorId, given by its path), as a reference", async () => {
    const model = inferResources(await loadContract('test/contracts/library-api/openapi.yaml'));
    const books = model.resources.find((r) => r.key === '/authors/{}/books');
    const authors = model.resources.find((r) => r.key === '/authors');
    expect(books).toBeDefined();
    expect(referencedResource(model, 'authorId', books)).toBeUndefined();
    expect(referencedResource(model, 'authorId')?.key).toBe('/authors');
    expect(referencedResource(model, 'authorId', authors)).toBeUndefined();
  });
});
