import { describe, expect, it } from 'vitest';
import { loadContract } from '../load-contract.js';
import { inferResources } from './infer-resources.js';
import type { Resource } from './resource.js';
import { assignsIds, besideCreate, lastingFields, listedRecords, namingField, resourceRoles } from './resource-roles.js';

async function library() {
  const contract = await loadContract('test/contracts/library-api/openapi.yaml');
  return { contract, model: inferResources(contract) };
}

describe('the roles the runner reads off the resource model', () => {
  it('places each operation of a stateful resource, and nothing of a stateless one', async () => {
    const { model } = await library();
    const roles = resourceRoles(model);
    expect(roles.get('addBook')).toMatchObject({ kind: 'create', resource: { key: '/authors/{}/books' } });
    expect(roles.get('listBooks')?.kind).toBe('list');
    expect(roles.has('reserveBook')).toBe(false);
  });

  it('tells a service-assigned id (readOnly memberId, Author.id) from a client-named one (isbn)', async () => {
    const { model } = await library();
    const by = (key: string) => model.resources.find((r) => r.key === key) as Resource;
    expect(assignsIds(by('/members'))).toBe(true);
    expect(assignsIds(by('/authors'))).toBe(true);
    expect(assignsIds(by('/authors/{}/books'))).toBe(false);
  });

  it('finds the list beside a create, and none beside an operation that creates nothing', async () => {
    const { contract, model } = await library();
    const addBook = contract.byId.get('addBook');
    const getBook = contract.byId.get('getBook');
    if (!addBook || !getBook) throw new Error('library contract changed');
    expect(besideCreate(model, addBook, 'list', contract.byId)?.operation.operationId).toBe('listBooks');
    expect(besideCreate(model, getBook, 'list', contract.byId)).toBeUndefined();
  });

  const wrapped = {
    listPointer: ['items'],
    schema: { allOf: [{ properties: { name: {} } }, { properties: { status: { enum: ['a'] } } }] },
  };

  it('reads a wrapped list at its pointer, and lasting fields of an allOf representation, enums aside', () => {
    const resource = wrapped as unknown as Resource;
    expect(listedRecords(resource, { items: [{ name: 'x' }], next: 'c' })).toEqual([{ name: 'x' }]);
    expect(listedRecords(resource, [{ name: 'x' }])).toBeUndefined();
    expect(lastingFields(resource, { name: 'Rex', status: 'a', other: 1 })).toEqual({ name: 'Rex' });
  });

  it('names a record by the first required text field, allOf members merged', () => {
    const schema = {
      allOf: [
        { required: ['age'], properties: { age: { type: 'integer' } } },
        { required: ['title'], properties: { title: { type: 'string' } } },
      ],
    };
    expect(namingField(schema as never)).toBe('title');
    expect(namingField({ type: 'object', properties: { title: { type: 'string' } } })).toBeUndefined();
    // A client-named id held to a pattern, or a short code, cannot carry a mark: the next free text names the record.
    const item = {
      type: 'object',
      required: ['sku', 'code', 'name'],
      properties: {
        sku: { type: 'string', pattern: '^[A-Z]{3}-[0-9]{6}$' },
        code: { type: 'string', maxLength: 8 },
        name: { type: 'string', minLength: 1 },
      },
    };
    expect(namingField(item as never)).toBe('name');
  });
});
