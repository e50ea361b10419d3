import { describe, expect, it } from 'vitest';
import { PetStore } from './pet-store.js';

describe('PetStore', () => {
  it('assigns sequential ids and lists by status, newest first', () => {
    const store = new PetStore(10);
    const a = store.create({ name: 'a', categoryId: 1, status: 'sold' });
    store.create({ name: 'b', categoryId: 1, status: 'available' });
    const c = store.create({ name: 'c', categoryId: 2n ** 60n, status: 'sold' });
    expect([a.id, c.id]).toEqual([1, 3]);
    expect(store.list(10, 'sold').map((p) => p.name)).toEqual(['c', 'a']);
    expect(store.list(1)).toEqual([c]);
    expect(store.listJson(10, 'sold')).toBe(
      '[{"id":3,"name":"c","categoryId":1152921504606846976,"status":"sold"},{"id":1,"name":"a","categoryId":1,"status":"sold"}]',
    );
  });

  it('escapes names in the JSON it renders', () => {
    const store = new PetStore(10);
    const pet = store.create({ name: 'say "hi"\n', categoryId: 1 });
    expect(JSON.parse(store.getJson(pet.id) as string).name).toBe('say "hi"\n');
  });

  it('refuses a pet past its capacity with store_full, keeping what it has', () => {
    const store = new PetStore(1);
    store.create({ name: 'a', categoryId: 1 });
    expect(() => store.create({ name: 'b', categoryId: 1 })).toThrow(expect.objectContaining({ code: 'store_full' }));
    expect(store.size).toBe(1);
  });

  it('refuses a pet once its id would pass 2^53−1, without storing it', () => {
    const store = new PetStore(10);
    store.replaceAll([{ id: Number.MAX_SAFE_INTEGER, name: 'largest', categoryId: 1 }]);
    expect(() => store.create({ name: 'b', categoryId: 1 })).toThrow(expect.objectContaining({ code: 'store_full' }));
    expect(store.size).toBe(1);
  });

  it('finds fixture pets by their own ids and created pets after the largest, and nothing in between', () => {
    const store = new PetStore(10);
    store.replaceAll([
      { id: 7, name: 'seven', categoryId: 1, status: 'sold' },
      { id: 3, name: 'three', categoryId: 1 },
    ]);
    const created = store.create({ name: 'new', categoryId: 2, status: 'sold' });
    expect(created.id).toBe(8);
    expect([store.get(3)?.name, store.get(7)?.name, store.get(8)?.name]).toEqual(['three', 'seven', 'new']);
    expect([store.get(4), store.get(9), store.getJson(0)]).toEqual([undefined, undefined, undefined]);
    expect(store.list(10, 'sold').map((p) => p.id)).toEqual([8, 7]);
    expect(store.listJson(2, undefined)).toBe(
      '[{"id":8,"name":"new","categoryId":2,"status":"sold"},{"id":3,"name":"three","categoryId":1}]',
    );
  });
});

describe('PetStore memory budget', () => {
  it('counts bytes across the stores that share a budget, and gives them back on clear', () => {
    const budget = { limit: 4000, used: 0 };
    const a = new PetStore(100, budget);
    const b = new PetStore(100, budget);
    a.create({ name: 'x'.repeat(1000), categoryId: 1 });
    expect(budget.used).toBe(a.bytes);
    expect(() => b.create({ name: 'y'.repeat(1000), categoryId: 1 })).toThrow(expect.objectContaining({ code: 'store_full' }));
    expect(b.size).toBe(0);
    a.clear();
    expect(budget.used).toBe(0);
    expect(b.create({ name: 'y'.repeat(1000), categoryId: 1 }).id).toBe(1);
  });
});
