import { randomUUID } from 'node:crypto';
import { parseJson, stringifyJson } from '../../contract/lossless-json.js';
import type { AppError } from '../../contract/app-error.js';
import { mockError } from '../error-codes.js';
import { lineBytes, recordLine } from '../persistence/record-line.js';
import { addPosition, placeOf, removePosition } from './sorted-positions.js';
import { chargeBudget, recordCost, reserveBudget, type StoreBudget, unlimitedBudget } from './store-budget.js';

export type RecordId = number | string;
export type StoredRecord = Readonly<Record<string, unknown>>;

/** How a store assigns ids (docs/resources.md, Create): max+1 for integers, never reused; a UUID for format uuid. */
export type IdKind = 'integer' | 'uuid' | 'string';

export interface RecordStoreOptions {
  readonly idField: string;
  readonly idKind: IdKind;
  /** For text ids the schema holds to a shape (a pattern): makes a fresh one, in place of counting (text-ids.ts). */
  readonly freshId?: () => unknown;
  /** Fields never kept, so never answered: the representation's writeOnly ones, in records given whole too. */
  readonly hiddenFields?: readonly string[];
  /** Fields a list may filter on (the list's filter parameters): each gets an index. */
  readonly indexFields: readonly string[];
  readonly maxRecords: number;
  /** How messages name the records (the collection's name, `pets`); `records` when not given. */
  readonly name?: string;
  readonly budget?: StoreBudget;
}

export interface ListQuery {
  readonly limit: number;
  readonly offset?: number;
  /**
   * Only records older than the one at this position: a keyset cursor (the position of the last record of the page
   * before). Unlike an offset, it keeps its place when records are created or deleted between two pages.
   */
  readonly before?: number;
  /** Field → value; a record is listed when every field equals its value. */
  readonly filters?: Readonly<Record<string, unknown>>;
  /** The parent scope (`/authors/{}/books` under author 7: `["7"]`): only its records are listed. */
  readonly scope?: string;
}

/** A record given whole (fixtures, a state file), with the scope of the parents it is nested under, if any. */
export interface ScopedRecord {
  readonly record: StoredRecord;
  readonly scope?: string | undefined;
}

// Ids a store assigns in a row sit at consecutive positions, so their position follows from the id and a million of
// them need no map entry (a Map of a million ids is about 40 MB). Other ids, given or scoped, are in a map.
interface Run {
  firstId: number;
  firstPosition: number;
  count: number;
}

/**
 * Records rendered once and shared by every store that starts from them (the fixtures: the default store, each
 * session and the read-only view of sessions not made yet): a store that adopts them copies their positions,
 * never the records, so a 35 MB fixtures file costs its 35 MB once, not once a session.
 */
export interface RenderedRecords {
  readonly json: readonly string[];
  readonly scopes: readonly (string | undefined)[];
  readonly positions: ReadonlyMap<RecordId, number>;
  readonly run: Readonly<Run>;
  readonly indexes: ReadonlyMap<string, ReadonlyMap<string, readonly number[]>>;
  readonly nextId: number;
  /** What the rendered records take in memory, paid once by whoever rendered them (see StoreBudget). */
  readonly bytes: number;
  /** What they take in a state file, in each store that holds them. */
  readonly fileBytes: number;
}

// A shared record costs a store that adopts it one slot in each of its columns and indexes.
const SLOT_BYTES = 8;
const SCOPE = '\u0000scope';
// Fresh ids drawn for one create before the store gives up: only a pattern that allows few ids ever needs a second.
const FRESH_TRIES = 32;
// Deleted records leave holes in the columns until there are more holes than this and than live records: then
// the columns are compacted, so a list skips at most about as many holes as there are records (amortised O(1)
// per delete).
const MIN_HOLES_TO_COMPACT = 1024;

/**
 * The records of one resource, laid out for a million of them: each record's JSON rendered once, when stored,
 * since every operation answers with it (a record as an object is read back from it, losslessly, on the rare call
 * that wants one); a list newest first costs O(limit) (plus holes left by deletes, bounded by compaction);
 * filtered lists read from an index per filter field; fixtures are shared (see RenderedRecords); every store of a
 * mock draws on one byte budget, and on the state file's cap. Records of a nested resource carry their parent's
 * scope: they are read only through it and removed with it.
 */
export class RecordStore {
  readonly options: RecordStoreOptions;
  readonly budget: StoreBudget;
  #json: (string | undefined)[] = [];
  // Set only at the positions of scoped records: an unscoped store holds no array of a million undefineds.
  #scopes: (string | undefined)[] = [];
  // The adopted records' texts, at the positions they were adopted at: a record still equal to its shared text is
  // paid for by a slot, not again.
  #origin: readonly (string | undefined)[] = [];
  #shared: { readonly positions: ReadonlyMap<RecordId, number>; readonly run: Readonly<Run> } | undefined;
  #positions = new Map<RecordId, number>();
  #run: Run = { firstId: 0, firstPosition: 0, count: 0 };
  #count = 0;
  #indexes = new Map<string, Map<string, number[]>>();
  #holes = 0;
  #bytes = 0;
  #fileBytes = 0;
  #nextId = 1;

  constructor(options: RecordStoreOptions) {
    this.options = options;
    this.budget = options.budget ?? unlimitedBudget();
    this.clear();
  }

  /** Renders records that carry their ids (fixtures), once, for stores to adopt; throws on a repeated id. */
  static render(options: RecordStoreOptions, records: readonly ScopedRecord[]): RenderedRecords {
    const store = new RecordStore({ ...options, maxRecords: Number.POSITIVE_INFINITY, budget: unlimitedBudget() });
    for (const { record, scope } of records) store.create(record, scope);
    return {
      json: store.#json as string[],
      scopes: store.#scopes,
      positions: store.#positions,
      run: store.#run,
      indexes: store.#indexes,
      nextId: store.#nextId,
      bytes: store.#bytes,
      fileBytes: store.#fileBytes,
    };
  }

  get size(): number {
    return this.#count;
  }

  /** The bytes this store's records are estimated to take (see StoreBudget). */
  get bytes(): number {
    return this.#bytes;
  }

  get #slot(): number {
    return SLOT_BYTES * (1 + this.#indexes.size);
  }

  clear(): void {
    this.#charge(-this.#bytes, -this.#fileBytes);
    this.#json = [];
    this.#scopes = [];
    this.#origin = [];
    this.#shared = undefined;
    this.#positions = new Map();
    this.#run = { firstId: 0, firstPosition: 0, count: 0 };
    this.#count = 0;
    this.#indexes = new Map([...this.options.indexFields, SCOPE].map((f) => [f, new Map()]));
    this.#holes = 0;
    this.#nextId = 1;
  }

  /**
   * Starts from shared records (see RenderedRecords): their texts and id map are shared, the columns are this
   * store's. Charged a slot per record, since the records themselves are paid for once by whoever rendered them,
   * and their full size in the state file, which holds every store's records. Throws store_full, leaving the store
   * empty, when they do not fit.
   */
  adopt(records: RenderedRecords): void {
    this.clear();
    const count = records.json.length;
    this.#reserve(count * this.#slot, records.fileBytes, 'the fixtures do not fit in');
    this.#json = records.json.slice();
    this.#scopes = records.scopes.slice();
    this.#origin = records.json;
    this.#shared = { positions: records.positions, run: records.run };
    this.#indexes = new Map(
      [...records.indexes].map(([field, index]) => [field, new Map([...index].map(([key, list]) => [key, list.slice()]))]),
    );
    this.#count = count;
    this.#nextId = records.nextId;
    this.#charge(count * this.#slot, records.fileBytes);
  }

  /**
   * Throws store_full when `records` would not fit in place of this store's own records (an admin replace), by
   * --max-pets or by a byte budget; checked before anything is removed, so a refused replace leaves the records
   * (and those nested under them) as they were.
   */
  checkReplacement(records: readonly StoredRecord[], scope?: string): void {
    if (records.length > this.options.maxRecords) throw this.#full();
    let bytes = -this.#bytes;
    let fileBytes = -this.#fileBytes;
    for (const record of records) {
      const json = render(this.#shown(record));
      bytes += recordCost(json);
      fileBytes += lineBytes(json, scope);
    }
    this.#reserve(bytes, fileBytes, 'the records given do not fit in');
  }

  /** Replaces the contents with records that carry their ids (an admin replace); all or nothing. */
  replaceAll(records: readonly StoredRecord[], scope?: string): void {
    this.clear();
    try {
      for (const record of records) this.create(record, scope);
    } catch (error) {
      this.clear();
      throw error;
    }
  }

  /** Stores a record, with the id it carries or the next one; answers its JSON as stored. */
  create(fields: StoredRecord, scope?: string): string {
    return this.createRecord(fields, scope).json;
  }

  /** create(), answering the record's id too. */
  createRecord(given: StoredRecord, scope?: string): { readonly id: RecordId; readonly json: string } {
    if (this.size >= this.options.maxRecords) throw this.#full();
    const { idField } = this.options;
    const fields = this.#shown(given);
    const givenId = fields[idField];
    const id = givenId === undefined ? this.#assignId(scope) : (givenId as RecordId);
    // A new random UUID is taken by no record (2^122 of them): no lookup in a map of a million ids for it.
    const fresh = givenId === undefined && this.options.idKind === 'uuid';
    if (!fresh && this.#positionOf(id, scope) !== undefined)
      throw mockError('validation_failed', `${idField} ${String(id)} is already taken`);
    const record = givenId === undefined ? { [idField]: id, ...fields } : fields;
    const json = render(record);
    const bytes = recordCost(json);
    const fileBytes = lineBytes(json, scope);
    this.#reserve(bytes, fileBytes);
    // Counted only once the record is stored: a refused create uses up no id.
    if (givenId === undefined) {
      if (this.options.idKind !== 'uuid') this.#nextId++;
    } else if (typeof id === 'number' && id >= this.#nextId) this.#nextId = id + 1;
    const position = this.#json.length;
    this.#json.push(json);
    if (scope !== undefined) this.#scopes[position] = scope;
    if (!(scope === undefined && this.#extendRun(id, position))) this.#positions.set(recordKey(id, scope), position);
    this.#count++;
    this.#index(record, scope, position, addPosition);
    this.#charge(bytes, fileBytes);
    return { id, json };
  }

  /** The record's JSON, or undefined when no record has this id in this scope. */
  getJson(id: RecordId, scope?: string): string | undefined {
    const position = this.#positionOf(id, scope);
    return position === undefined ? undefined : this.#json[position];
  }

  /** The record read back from its JSON (int64 fields past 2^53 as bigints), or undefined. */
  get(id: RecordId, scope?: string): StoredRecord | undefined {
    const json = this.getJson(id, scope);
    return json === undefined ? undefined : readRecord(json);
  }

  /** Every record read back, in creation order: for a caller that wants objects (a test), never a request. */
  all(): StoredRecord[] {
    return [...this.jsonRecords()].map(readRecord);
  }

  /**
   * Replaces a record in place (PUT, and PATCH once merged): its id and place in the order stay. `stored` is the
   * record as stored now, when the caller has already read it back: it is not parsed again.
   */
  replace(id: RecordId, fields: StoredRecord, scope?: string, stored?: StoredRecord): string | undefined {
    const position = this.#positionOf(id, scope);
    if (position === undefined) return undefined;
    const record: Record<string, unknown> = { [this.options.idField]: id, ...this.#shown(fields) };
    record[this.options.idField] = id;
    const rendered = render(record);
    // Put back as it was adopted: the shared text again, paid for by its slot.
    const json = this.#origin[position] === rendered ? (this.#origin[position] as string) : rendered;
    const old = this.#json[position] as string;
    const bytes = this.#memoryAt(position, json) - this.#memoryAt(position, old);
    const fileBytes = lineBytes(json, scope) - lineBytes(old, scope);
    this.#reserve(bytes, fileBytes);
    // The scope stays; a field's index changes only when its value does.
    if (this.options.indexFields.length > 0) this.#reindex(stored ?? readRecord(old), record, position);
    this.#json[position] = json;
    this.#charge(bytes, fileBytes);
    return json;
  }

  /** Removes a record; false when there was none with this id in this scope. */
  remove(id: RecordId, scope?: string): boolean {
    const position = this.#positionOf(id, scope);
    if (position === undefined) return false;
    const json = this.#json[position] as string;
    // Read back only when an index needs its fields.
    this.#index(this.options.indexFields.length > 0 ? readRecord(json) : {}, scope, position, removePosition);
    this.#charge(-this.#memoryAt(position, json), -lineBytes(json, scope));
    this.#json[position] = undefined;
    this.#positions.delete(recordKey(id, scope));
    this.#count--;
    this.#holes++;
    if (this.#holes > MIN_HOLES_TO_COMPACT && this.#holes > this.#count) this.#compact();
    return true;
  }

  /** Each record's JSON text in creation order, as the store was when this began (an admin read). */
  *jsonRecords(): Generator<string> {
    const json = this.#json;
    const count = json.length;
    for (let i = 0; i < count; i++) {
      const text = json[i];
      if (text !== undefined) yield text;
    }
  }

  /** Each record's line in a state file (see recordLine), in creation order, as the store was when this began. */
  *fileLines(): Generator<string> {
    const json = this.#json;
    const scopes = this.#scopes;
    const count = json.length;
    for (let i = 0; i < count; i++) {
      const text = json[i];
      if (text !== undefined) yield recordLine(text, scopes[i]);
    }
  }

  /** The ids of a scope's records, in creation order: the children a deleted parent takes with it. */
  idsInScope(scope: string): RecordId[] {
    return (this.#indexes.get(SCOPE)?.get(valueKey(scope)) ?? []).map((position) => this.#idAt(position));
  }

  /** Removes every record of a scope (a deleted parent's children); answers how many. */
  removeScope(scope: string): number {
    const positions = [...(this.#indexes.get(SCOPE)?.get(valueKey(scope)) ?? [])];
    for (const position of positions) this.remove(this.#idAt(position), scope);
    return positions.length;
  }

  /** The newest records first, after `offset`, at most `limit`, filtered through the smallest index that applies. */
  listJson(query: ListQuery): string[] {
    return this.#list(query, undefined);
  }

  /** listJson, with the position of each record listed: a keyset cursor (ListQuery.before) is made from the last. */
  listPage(query: ListQuery): { readonly json: string[]; readonly positions: number[] } {
    const positions: number[] = [];
    return { json: this.#list(query, positions), positions };
  }

  #list(query: ListQuery, positions: number[] | undefined): string[] {
    const filters = query.filters === undefined ? [] : Object.entries(query.filters);
    const lists: (readonly number[])[] = [];
    for (const [field, value] of filters) {
      const index = this.#indexes.get(field);
      if (index) lists.push(index.get(valueKey(value)) ?? []);
    }
    if (query.scope !== undefined) lists.push(this.#indexes.get(SCOPE)?.get(valueKey(query.scope)) ?? []);
    // One index read alone answers the query; with more constraints, each candidate is checked against all.
    const constraints = filters.length + (query.scope === undefined ? 0 : 1);
    const check = constraints > 1 || constraints > lists.length;
    const source = lists.length > 0 ? lists.reduce((a, b) => (b.length < a.length ? b : a)) : undefined;
    const out: string[] = [];
    let skip = query.offset ?? 0;
    const count = source?.length ?? this.#json.length;
    const before = query.before;
    const start = before === undefined ? count : source ? placeOf(source, before) : Math.min(count, before);
    for (let i = start - 1; i >= 0 && out.length < query.limit; i--) {
      const position = source ? (source[i] as number) : i;
      const json = this.#json[position];
      if (json === undefined || (check && !this.#matches(position, json, filters, query.scope))) continue;
      if (skip > 0) skip--;
      else {
        out.push(json);
        positions?.push(position);
      }
    }
    return out;
  }

  #matches(position: number, json: string, filters: [string, unknown][], scope: string | undefined): boolean {
    if (scope !== undefined && this.#scopes[position] !== scope) return false;
    const record = readRecord(json);
    return filters.every(([field, value]) => valueKey(record[field]) === valueKey(value));
  }

  #positionOf(id: RecordId, scope: string | undefined): number | undefined {
    const own = this.#inRun(this.#run, id, scope) ?? this.#positions.get(recordKey(id, scope));
    if (own !== undefined || this.#shared === undefined) return own;
    // A shared record this store deleted is a hole: the shared map still has it.
    const shared = this.#inRun(this.#shared.run, id, scope) ?? this.#shared.positions.get(recordKey(id, scope));
    return shared !== undefined && this.#json[shared] !== undefined ? shared : undefined;
  }

  #inRun(run: Readonly<Run>, id: RecordId, scope: string | undefined): number | undefined {
    if (scope !== undefined || typeof id !== 'number' || id < run.firstId || id >= run.firstId + run.count) return undefined;
    const position = run.firstPosition + (id - run.firstId);
    // A deleted id may have been given again: then the map has it.
    return this.#json[position] === undefined ? undefined : position;
  }

  #extendRun(id: RecordId, position: number): boolean {
    const run = this.#run;
    if (typeof id !== 'number') return false;
    if (run.count === 0) this.#run = { firstId: id, firstPosition: position, count: 1 };
    else if (id === run.firstId + run.count && position === run.firstPosition + run.count) run.count++;
    else return false;
    return true;
  }

  // A record without the fields the store never keeps (RecordStoreOptions.hiddenFields); most records have none.
  #shown(fields: StoredRecord): StoredRecord {
    const hidden = this.options.hiddenFields;
    return hidden?.some((name) => Object.hasOwn(fields, name)) ? without(fields, hidden) : fields;
  }

  #idAt(position: number): RecordId {
    return readRecord(this.#json[position] as string)[this.options.idField] as RecordId;
  }

  #assignId(scope: string | undefined): RecordId {
    if (this.options.idKind === 'uuid') return randomUUID();
    const { freshId } = this.options;
    if (freshId !== undefined) {
      // About 48 random bits (fresh-values.ts): a repeat is all but impossible, and drawn again if it comes.
      for (let tries = 0; tries < FRESH_TRIES; tries++) {
        const id = freshId() as RecordId;
        if (this.#positionOf(id, scope) === undefined) return id;
      }
      throw mockError('store_full', `the mock found no ${this.options.idField} left to give in ${FRESH_TRIES} tries`);
    }
    // Past 2^53−1 a double cannot count: the next id would repeat the last one. Fixtures may hold ids up to that
    // limit (to exercise large ids); what is left above the largest is all the store can still hand out.
    if (this.#nextId > Number.MAX_SAFE_INTEGER) {
      throw mockError(
        'store_full',
        `the mock has no id left to give: the next one would pass ${Number.MAX_SAFE_INTEGER} (2^53−1), the largest it assigns. POST /__admin/reset, or use fixtures with smaller ids`,
      );
    }
    const id = this.#nextId;
    return this.options.idKind === 'string' ? String(id) : id;
  }

  #index(record: StoredRecord, scope: string | undefined, position: number, change: (list: number[], p: number) => void) {
    for (const field of this.options.indexFields) this.#indexOne(field, record[field], position, change);
    if (scope !== undefined) this.#indexOne(SCOPE, scope, position, change);
  }

  #reindex(old: StoredRecord, record: StoredRecord, position: number): void {
    for (const field of this.options.indexFields) {
      const before = old[field];
      const after = record[field];
      if (before !== undefined && after !== undefined && valueKey(before) === valueKey(after)) continue;
      this.#indexOne(field, before, position, removePosition);
      this.#indexOne(field, after, position, addPosition);
    }
  }

  #indexOne(field: string, value: unknown, position: number, change: (list: number[], p: number) => void) {
    if (value === undefined) return;
    const index = this.#indexes.get(field) as Map<string, number[]>;
    const key = valueKey(value);
    const list = index.get(key) ?? [];
    if (list.length === 0) index.set(key, list);
    change(list, position);
    if (list.length === 0) index.delete(key);
  }

  // Rebuilds the columns without holes; positions move, so the id map, the run and the indexes are rebuilt with
  // them, and the shared id map is let go.
  #compact(): void {
    const json: string[] = [];
    const scopes: (string | undefined)[] = [];
    const origin: (string | undefined)[] = [];
    for (let i = 0; i < this.#json.length; i++) {
      const text = this.#json[i];
      if (text === undefined) continue;
      if (this.#scopes[i] !== undefined) scopes[json.length] = this.#scopes[i];
      if (i < this.#origin.length && this.#origin[i] === text) origin[json.length] = text;
      json.push(text);
    }
    this.#json = json;
    this.#scopes = scopes;
    this.#origin = origin;
    this.#shared = undefined;
    this.#holes = 0;
    this.#run = { firstId: 0, firstPosition: 0, count: 0 };
    this.#positions = new Map();
    this.#indexes = new Map([...this.options.indexFields, SCOPE].map((f) => [f, new Map()]));
    json.forEach((text, position) => {
      const record = readRecord(text);
      const id = record[this.options.idField] as RecordId;
      if (!(scopes[position] === undefined && this.#extendRun(id, position)))
        this.#positions.set(recordKey(id, scopes[position]), position);
      this.#index(record, scopes[position], position, addPosition);
    });
  }

  // What the record at `position` costs this store: a slot while it is the shared text it adopted.
  #memoryAt(position: number, json: string): number {
    return position < this.#origin.length && this.#origin[position] === json ? this.#slot : recordCost(json);
  }

  #reserve(bytes: number, fileBytes: number, loading?: string): void {
    reserveBudget(this.budget, bytes, fileBytes, loading);
  }

  #full(): AppError {
    return mockError(
      'store_full',
      `the mock holds its maximum of ${this.options.maxRecords} ${this.options.name ?? 'records'}: POST /__admin/reset, or restart it with a larger --max-pets (records per resource)`,
    );
  }

  #charge(bytes: number, fileBytes: number): void {
    this.#bytes += bytes;
    this.#fileBytes += fileBytes;
    chargeBudget(this.budget, bytes, fileBytes);
  }
}

function without(record: StoredRecord, names: readonly string[]): StoredRecord {
  const kept = { ...record };
  for (const name of names) delete kept[name];
  return kept;
}

// One flat string from JSON.stringify; a bigint (an int64 past 2^53) through the exact-integer stringifier.
function render(record: StoredRecord): string {
  try {
    return JSON.stringify(record);
  } catch {
    return stringifyJson(record);
  }
}

// Ids are unique within a parent: `/authors/{}/books` may hold ISBN 111 under two authors.
function recordKey(id: RecordId, scope: string | undefined): RecordId {
  return scope === undefined ? id : `${scope}\u0000${typeof id}:${String(id)}`;
}

// Lossless: an int64 field past 2^53 keeps its digits, so its index key is the one it was stored under.
function readRecord(json: string): StoredRecord {
  return parseJson(json) as unknown as StoredRecord;
}

// 1 and "1" are different values of a field: the index keys by JSON text.
function valueKey(value: unknown): string {
  return typeof value === 'bigint' ? value.toString() : JSON.stringify(value);
}
