import { describe, expect, it } from 'vitest';
import { loadContract } from '../load-contract.js';
import { describeResources, summarizeResources } from './describe-resources.js';
import { inferResources } from './infer-resources.js';
import type { ResourceModel } from './resource.js';

const model = async (file: string) => inferResources(await loadContract(file));

describe('summarizeResources', () => {
  it('names each resource, its id field and operations, and why the rest stays stateless, on one line', async () => {
    expect(summarizeResources(await model('openapi.yaml'))).toBe(
      '/pets (id: create, list, get); stateless: /messages (nothing reads its records back: no GET /messages/{id} and no list)',
    );
    expect(summarizeResources(await model('test/contracts/library-api/openapi.yaml'))).toContain(
      '/authors/{}/books (isbn: create, list, get, merge-patch, delete)',
    );
    expect(summarizeResources(await model('test/contracts/library-api/openapi.yaml'))).toContain(
      'stateless operations: reserveBook (POST on an item path is not CRUD)',
    );
  });

  it('names each single record, under its parent, in place of the collection it is not', async () => {
    const line = summarizeResources(await model('test/contracts/singletons/openapi.yaml'));
    expect(line).toBe(
      '/projects (id: create, list, get, delete), /settings (singleton: get, replace, merge-patch), /projects/{}/settings (singleton under /projects: get, replace, merge-patch)',
    );
  });

  it('counts resources past twelve instead of naming them', () => {
    const resources = Array.from({ length: 14 }, (_, i) => ({
      key: `/r${i}`,
      stateless: 'none of its operations is CRUD',
      operations: [],
      skipped: [],
    }));
    const line = summarizeResources({ resources, unplaced: [] } as unknown as ResourceModel);
    expect(line).toContain('/r11 (none of its operations is CRUD) and 2 more');
    expect(line).not.toContain('/r12');
  });
});

describe('describeResources', () => {
  it('writes a line per resource and per operation, with the list query and the stateless reasons', async () => {
    const lines = describeResources(await model('test/contracts/library-api/openapi.yaml'));
    expect(lines).toContain(
      '/authors/{}/books (books): id field isbn (x-resource-id at the representation schema), under /authors; representation from its get; the server sets addedAt',
    );
    expect(lines).toContain(
      '  list listBooks GET /authors/{authorId}/books; filters genre; paging cursor, limit; records in items',
    );
    expect(lines).toContain('  list listAuthors GET /authors; filters country; paging page, limit per_page; ignores sort');
    expect(lines).toContain('  stateless reserveBook POST /authors/{authorId}/books/{bookId}: POST on an item path is not CRUD');
    expect(lines).toContain('/stats (stats): stateless: none of its operations is CRUD');
  });

  it("names the fields that refer to another resource's records, and no parent's id", async () => {
    const evolved = describeResources(await model('test/contracts/evolved-petstore/openapi.yaml'));
    expect(evolved).toContain('  refers by petId to /pets (a record the runner creates first)');
    const library = describeResources(await model('test/contracts/library-api/openapi.yaml'));
    expect(library.filter((line) => line.includes('refers by'))).toEqual([]);
  });
});
