import { describe, expect, it } from 'vitest';
import { loadContract } from '../../contract/load-contract.js';
import { inferResources } from '../../contract/resources/infer-resources.js';
import type { Resource } from '../../contract/resources/resource.js';
import { fillServerFields } from './fill-server-fields.js';

const NOW = new Date('2026-11-25T12:00:00.000Z');

async function resource(file: string, key: string): Promise<Resource> {
  const found = inferResources(await loadContract(file)).resources.find((r) => r.key === key);
  if (!found) throw new Error(`no ${key}`);
  return found;
}

describe('fillServerFields', () => {
  it('sets a readOnly date-time to now and ignores the id and readOnly values a client sends', async () => {
    const orders = await resource('test/contracts/evolved-petstore/openapi.yaml', '/store/orders');
    const record = fillServerFields(orders, { id: 99, quantity: 2, petId: 1, placedAt: '1999-01-01T00:00:00Z' }, NOW);
    // status is required and left out: it takes the enum's first value, so the record stays valid.
    expect(record).toEqual({ petId: 1, quantity: 2, status: 'placed', placedAt: '2026-11-25T12:00:00.000Z' });
  });

  it('writes fields in the representation order, keeps fields the schema does not name, and applies defaults', async () => {
    const pets = await resource('openapi.yaml', '/pets');
    const withDefault = {
      ...pets,
      schema: { ...pets.schema, properties: { ...pets.schema?.properties, status: { type: 'string', default: 'available' } } },
    } as Resource;
    expect(Object.keys(fillServerFields(withDefault, { extra: true, categoryId: 1, name: 'Rex' }, NOW))).toEqual([
      'name',
      'categoryId',
      'status',
      'extra',
    ]);
    expect(fillServerFields(withDefault, { name: 'Rex', categoryId: 1 }, NOW).status).toBe('available');
    expect(fillServerFields(pets, { name: 'Rex', categoryId: 1 }, NOW)).toEqual({ name: 'Rex', categoryId: 1 });
  });

  it('keeps a client-given id where the id is not server-set (Book: isbn)', async () => {
    const books = await resource('test/contracts/library-api/openapi.yaml', '/authors/{}/books');
    const record = fillServerFields(books, { isbn: '978-0-00', title: 'T', addedAt: 'x' }, NOW);
    expect(record).toEqual({ isbn: '978-0-00', title: 'T', addedAt: '2026-11-25T12:00:00.000Z' });
  });
});
