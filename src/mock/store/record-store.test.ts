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
});
