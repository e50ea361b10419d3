import { describe, expect, it } from 'vitest';
import { loadContract } from '../load-contract.js';
import { inferResources } from './infer-resources.js';
import { referencedResource } from './referenced-resource.js';

describe('referencedResource', () => {
  it("reads an order's petId as a reference to /pets, and categoryId, which no path names, as none", async () => {
    const model = inferResources(await loadContract('test/contracts/evolved-petstore/openapi.yaml'));
    const orders = model.resources.find((r) => r.name === 'orders');
    expect(referencedResource(model, 'petId', orders)?.collectionPath).toBe('/pets');
    expect(referencedResource(model, 'categoryId', orders)).toBeUndefined();
    expect(referencedResource(model, 'petid', orders)).toBeUndefined();
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
