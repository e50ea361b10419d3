import { describe, expect, it } from 'vitest';
import { RecordStore, type RecordStoreOptions } from './record-store.js';

const orders = (options: Partial<RecordStoreOptions> = {}) =>
  new RecordStore({ idField: 'id', idKind: 'integer', indexFields: ['status'], maxRecords: 100, ...options });
const ids = (texts: string[]) => texts.map((t) => (JSON.parse(t) as { id: unknown }).id);

describe('RecordStore', () => {
  it('assigns max+1 ids, id first, never reused after a delete', () => {
    const store = orders();
    store.replaceAll([{ id: 7, status: 'placed' }]);
    expect(store.create({ status: 'placed', quantity: 1 })).toBe('{"id":8,"status":"placed","quantity":1}');
    expect(store.remove(8)).toBe(true);
    expect(JSON.parse(store.create({ status: 'placed' })).id).toBe(9);
    // An id freed by a delete can be given again (a chosen state): it is found, and ids go on after the largest.
    store.create({ id: 8, status: 'approved' });
    expect(store.getJson(8)).toBe('{"id":8,"status":"approved"}');
    expect(JSON.parse(store.create({})).id).toBe(10);
  });

  it('lists newest first, filtered by an index, with offset paging', () => {
    const store = orders();
    for (const status of ['placed', 'approved', 'placed', 'placed', 'approved']) store.create({ status });
    expect(ids(store.listJson({ limit: 10 }))).toEqual([5, 4, 3, 2, 1]);
    expect(ids(store.listJson({ limit: 2, filters: { status: 'placed' } }))).toEqual([4, 3]);
    expect(ids(store.listJson({ limit: 2, offset: 1, filters: { status: 'placed' } }))).toEqual([3, 1]);
    expect(store.listJson({ limit: 10, filters: { status: 'delivered' } })).toEqual([]);
  });

  it('lists below a place (a keyset cursor), which keeps its records when others are created or deleted', () => {
    const store = orders();
    for (const status of ['placed', 'approved', 'placed', 'placed', 'approved']) store.create({ status });
    const first = store.listPage({ limit: 2 });
    expect(ids(first.json)).toEqual([5, 4]);
    store.create({ status: 'placed' });
    store.remove(3);
    const before = first.positions.at(-1);
    expect(ids(store.listJson({ limit: 2, before }))).toEqual([2, 1]);
    const placed = store.listPage({ limit: 1, filters: { status: 'placed' } });
    expect(ids(placed.json)).toEqual([6]);
    expect(ids(store.listJson({ limit: 5, before: placed.positions[0], filters: { status: 'placed' } }))).toEqual([4, 1]);
  });

  it('filters on a field it has no index for by reading the records', () => {
    const store = orders();
    store.create({ status: 'placed', petId: 1 });
    store.create({ status: 'placed', petId: 2 });
    expect(ids(store.listJson({ limit: 10, filters: { petId: 1 } }))).toEqual([1]);
    expect(ids(store.listJson({ limit: 10, filters: { petId: 2, status: 'placed' } }))).toEqual([2]);
  });

  it('replaces in place: the id and the place in the order stay, the index follows the new value', () => {
    const store = orders();
    store.create({ status: 'placed' });
    store.create({ status: 'placed' });
    expect(store.replace(1, { id: 99, status: 'approved' })).toBe('{"id":1,"status":"approved"}');
    expect(ids(store.listJson({ limit: 10, filters: { status: 'placed' } }))).toEqual([2]);
    expect(ids(store.listJson({ limit: 10, filters: { status: 'approved' } }))).toEqual([1]);
    expect(ids(store.listJson({ limit: 10 }))).toEqual([2, 1]);
    expect(store.replace(5, { status: 'placed' })).toBeUndefined();
  });

  it('re-indexes a replace by the fields that changed: kept, added, removed, in a scope, from the record handed in', () => {
    const store = orders();
    store.create({ status: 'placed' }, '["a"]');
    store.create({ status: 'placed' }, '["a"]');
    store.replace(1, { status: 'placed', note: 'x' }, '["a"]', { id: 1, status: 'placed' });
    expect(ids(store.listJson({ limit: 10, filters: { status: 'placed' }, scope: '["a"]' }))).toEqual([2, 1]);
    store.replace(2, {}, '["a"]');
    expect(ids(store.listJson({ limit: 10, filters: { status: 'placed' } }))).toEqual([1]);
    store.replace(2, { status: 'approved' }, '["a"]');
    expect(ids(store.listJson({ limit: 10, filters: { status: 'approved' }, scope: '["a"]' }))).toEqual([2]);
    expect(ids(store.listJson({ limit: 10, scope: '["a"]' }))).toEqual([2, 1]);
  });

  it('forgets a deleted record everywhere: get, lists, indexes; a second delete finds nothing', () => {
    const store = orders();
    store.create({ status: 'placed' });
    store.create({ status: 'placed' });
    expect(store.remove(2)).toBe(true);
    expect(store.remove(2)).toBe(false);
    expect(store.getJson(2)).toBeUndefined();
    expect(ids(store.listJson({ limit: 10 }))).toEqual([1]);
    expect(ids(store.listJson({ limit: 10, filters: { status: 'placed' } }))).toEqual([1]);
    expect(store.size).toBe(1);
  });

  it('compacts after many deletes and still finds, lists and filters every record left', () => {
    const store = orders({ maxRecords: 10_000 });
    for (let i = 0; i < 5000; i++) store.create({ status: i % 2 === 0 ? 'placed' : 'approved' });
    for (let id = 1; id <= 4000; id++) store.remove(id);
    expect(store.size).toBe(1000);
    expect(store.getJson(4001)).toBe('{"id":4001,"status":"placed"}');
    expect(ids(store.listJson({ limit: 2, filters: { status: 'approved' } }))).toEqual([5000, 4998]);
    expect(store.listJson({ limit: 5000 })).toHaveLength(1000);
  });

  it('scopes nested records to their parent and removes them with it', () => {
    const books = new RecordStore({ idField: 'isbn', idKind: 'string', indexFields: ['genre'], maxRecords: 10 });
    books.create({ isbn: '111', genre: 'novel' }, 'ann');
    books.create({ isbn: '222', genre: 'novel' }, 'bob');
    books.create({ isbn: '111', genre: 'essay' }, 'bob');
    expect(books.getJson('111', 'bob')).toBe('{"isbn":"111","genre":"essay"}');
    books.remove('111', 'bob');
    expect(books.getJson('111', 'bob')).toBeUndefined();
    expect(books.getJson('111', 'ann')).toBe('{"isbn":"111","genre":"novel"}');
    expect(books.listJson({ limit: 10, scope: 'bob', filters: { genre: 'novel' } })).toEqual(['{"isbn":"222","genre":"novel"}']);
    expect(books.removeScope('ann')).toBe(1);
    expect(books.size).toBe(1);
    expect(books.listJson({ limit: 10, scope: 'ann' })).toEqual([]);
  });

  it('assigns UUIDs for format uuid, and refuses an id that is taken', () => {
    const authors = new RecordStore({ idField: 'id', idKind: 'uuid', indexFields: [], maxRecords: 10 });
    const { id } = JSON.parse(authors.create({ name: 'Ann' })) as { id: string };
    expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(() => authors.create({ id, name: 'again' })).toThrow(/already taken/);
  });

  it('keeps an int64 past 2^53 exact, in the record and in its index, and refuses past its capacity with store_full', () => {
    const store = orders({ maxRecords: 1, indexFields: ['total'] });
    expect(store.create({ status: 'placed', total: 2n ** 60n + 1n })).toBe(
      '{"id":1,"status":"placed","total":1152921504606846977}',
    );
    expect(store.listJson({ limit: 1, filters: { total: 2n ** 60n } })).toEqual([]);
    store.replace(1, { status: 'placed', total: 2n ** 60n });
    expect(ids(store.listJson({ limit: 1, filters: { total: 2n ** 60n } }))).toEqual([1]);
    expect(store.listJson({ limit: 1, filters: { total: 2n ** 60n + 1n } })).toEqual([]);
    expect(() => store.create({ status: 'placed' })).toThrow(expect.objectContaining({ code: 'store_full' }));
  });

  it('shares the byte budget with other stores, charges a replace its growth, and gives bytes back on delete and clear', () => {
    const budget = { limit: 3000, used: 0 };
    const a = orders({ budget });
    const b = orders({ budget });
    a.create({ status: 'placed', note: 'x'.repeat(500) });
    expect(budget.used).toBe(a.bytes);
    expect(() => b.create({ note: 'y'.repeat(1000) })).toThrow(expect.objectContaining({ code: 'store_full' }));
    expect(() => a.replace(1, { note: 'z'.repeat(1400) })).toThrow(expect.objectContaining({ code: 'store_full' }));
    expect(a.getJson(1)).toContain('x'.repeat(500));
    a.remove(1);
    expect(budget.used).toBe(0);
    b.create({ note: 'y'.repeat(1000) });
    b.clear();
    expect(budget.used).toBe(0);
  });

  it('finds records given out of order by their ids, created ones after the largest, and nothing in between', () => {
    const store = orders();
    store.replaceAll([
      { id: 7, status: 'sold' },
      { id: 3, status: 'placed' },
    ]);
    expect(store.createRecord({ status: 'sold' }).id).toBe(8);
    expect([3, 7, 8].map((id) => store.get(id)?.status)).toEqual(['placed', 'sold', 'sold']);
    expect([store.getJson(4), store.getJson(9), store.getJson(0)]).toEqual([undefined, undefined, undefined]);
    expect(ids(store.listJson({ limit: 10, filters: { status: 'sold' } }))).toEqual([8, 7]);
  });
});

describe('RecordStore: fixtures rendered once, shared', () => {
  const fixtures = () =>
    RecordStore.render(
      { idField: 'id', idKind: 'integer', indexFields: ['status'], maxRecords: 100 },
      [5, 9, 2].map((id) => ({ record: { id, status: id === 9 ? 'sold' : 'placed', note: 'n'.repeat(100) } })),
    );

  it('lets stores start from the same records, each charged a slot per record, and each change its own', () => {
    const budget = { limit: 1_000_000, used: 0, file: { limit: 1_000_000, used: 0 } };
    const shared = fixtures();
    const a = orders({ budget });
    const b = orders({ budget });
    a.adopt(shared);
    b.adopt(shared);
    expect(a.bytes).toBeLessThan(shared.bytes / 10);
    expect(budget.used).toBe(a.bytes + b.bytes);
    // The state file holds both stores' records: each is charged their full size there.
    expect(budget.file.used).toBe(2 * shared.fileBytes);
    expect(a.createRecord({ status: 'sold' }).id).toBe(10);
    expect(a.remove(9)).toBe(true);
    a.replace(5, { status: 'sold' });
    expect(ids(a.listJson({ limit: 10, filters: { status: 'sold' } }))).toEqual([10, 5]);
    expect(ids(b.listJson({ limit: 10, filters: { status: 'sold' } }))).toEqual([9]);
    expect(ids(b.listJson({ limit: 10 }))).toEqual([2, 9, 5]);
    expect(b.getJson(9)).toContain('"sold"');
    expect(a.getJson(9)).toBeUndefined();
    a.clear();
    b.clear();
    expect(budget).toMatchObject({ used: 0, file: { used: 0 } });
  });

  it('refuses fixtures that do not fit, leaving the store empty', () => {
    const store = orders({ budget: { limit: 10, used: 0 } });
    expect(() => store.adopt(fixtures())).toThrow(/the fixtures do not fit in the store's memory budget/);
    expect(store.size).toBe(0);
  });

  it('refuses a create that would take the state file past its cap, naming --max-state-bytes', () => {
    const budget = { limit: 1_000_000, used: 0, file: { limit: 100, used: 0 } };
    const store = orders({ budget });
    store.create({ status: 'placed' });
    expect(() => store.create({ status: 'placed', note: 'x'.repeat(100) })).toThrow(/--max-state-bytes/);
    expect(store.size).toBe(1);
    expect(budget.file.used).toBe(Buffer.byteLength('{"id":1,"status":"placed"}') + 1);
  });

  it('keeps working past a compaction of adopted records', () => {
    const shared = RecordStore.render(
      { idField: 'id', idKind: 'integer', indexFields: ['status'], maxRecords: 5000 },
      Array.from({ length: 3000 }, (_, i) => ({ record: { id: i + 1, status: 'placed' } })),
    );
    const budget = { limit: 1_000_000, used: 0 };
    const store = orders({ maxRecords: 5000, budget });
    store.adopt(shared);
    for (let id = 1; id <= 2500; id++) store.remove(id);
    expect(store.getJson(2501)).toBe('{"id":2501,"status":"placed"}');
    expect(store.createRecord({ status: 'sold' }).id).toBe(3001);
    expect(ids(store.listJson({ limit: 2 }))).toEqual([3001, 3000]);
    store.clear();
    expect(budget.used).toBe(0);
  });
});
