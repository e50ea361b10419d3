import { randomUUID } from 'node:crypto';
import { parseJson, stringifyJson } from '../../contract/lossless-json.js';
import { mockError } from '../error-codes.js';
import type { StoreBudget } from '../pet-store.js';
import { addPosition, removePosition } from './sorted-positions.js';

export type RecordId = number | string;
export type StoredRecord = Readonly<Record<string, unknown>>;

/** How a store assigns ids (docs/resources.md, Create): max+1 for integers, never reused; a UUID for format uuid. */
export type IdKind = 'integer' | 'uuid' | 'string';

export interface RecordStoreOptions {
  readonly idField: string;
  readonly idKind: IdKind;
  /** Fields a list may filter on (the list's filter parameters): each gets an index. */
  readonly indexFields: readonly string[];
  readonly maxRecords: number;
  readonly budget?: StoreBudget;
}

export interface ListQuery {
  readonly limit: number;
  readonly offset?: number;
  /** Field → value; a record is listed when every field equals its value. */
  readonly filters?: Readonly<Record<string, unknown>>;
  /** The parent scope (`/authors/{}/books` under author 7: `"7"`): only its records are listed. */
  readonly scope?: string;
}

// As in PetStore: a record's header, its slots in the columns and indexes, on the safe side; text is UTF-16.
const RECORD_OVERHEAD_BYTES = 240;
const SCOPE = '\u0000scope';
// Deleted records leave holes in the columns until there are more holes than this and than live records: then
// the columns are compacted, so a list skips at most about as many holes as there are records (amortised O(1)
// per delete).
const MIN_HOLES_TO_COMPACT = 1024;

/**
 * The records of one resource, in creation order, for any resource the contract describes (the generic
 * successor of PetStore, with its layout): each record's JSON rendered once when stored, a list newest first
 * costing O(limit) (plus holes left by deletes, bounded by compaction), filtered lists read from an index per
 * filter field, and the shared byte budget. Records of a nested resource carry their parent's scope: they are
 * read only through it and removed with it.
 */
export class RecordStore {
  readonly options: RecordStoreOptions;
  readonly budget: StoreBudget;
  #json: (string | undefined)[] = [];
  // Set only at the positions of scoped records: an unscoped store holds no array of a million undefineds.
  #scopes: (string | undefined)[] = [];
  #positions = new Map<RecordId, number>();
  // As in PetStore: ids the store assigns in a row sit at consecutive positions, so their position follows from
  // the id and a million of them need no map entry (a Map of a million ids is about 40 MB). Other ids, given or
  // scoped, are in #positions.
  #run = { firstId: 0, firstPosition: 0, count: 0 };
  #count = 0;
  #indexes = new Map<string, Map<string, number[]>>();
  #holes = 0;
  #bytes = 0;
  #nextId = 1;

  constructor(options: RecordStoreOptions) {
    this.options = options;
    this.budget = options.budget ?? { limit: Number.POSITIVE_INFINITY, used: 0 };
    this.clear();
  }

  get size(): number {
    return this.#count;
  }

  get bytes(): number {
    return this.#bytes;
  }

  clear(): void {
    this.#touch(-this.#bytes);
    this.#bytes = 0;
    this.#json = [];
    this.#scopes = [];
    this.#positions = new Map();
    this.#run = { firstId: 0, firstPosition: 0, count: 0 };
    this.#count = 0;
    this.#indexes = new Map([...this.options.indexFields, SCOPE].map((f) => [f, new Map()]));
    this.#holes = 0;
    this.#nextId = 1;
  }

  /** Replaces the contents with records that carry their ids (fixtures, an admin replace); all or nothing. */
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
    if (this.size >= this.options.maxRecords) {
      throw mockError(
        'store_full',
        `the mock holds its maximum of ${this.options.maxRecords} records of this resource: POST /__admin/reset, or restart it with a larger limit`,
      );
    }
    const { idField } = this.options;
    const given = fields[idField];
    const id = given === undefined ? this.#assignId() : (given as RecordId);
    if (this.#positionOf(id, scope) !== undefined)
      throw mockError('validation_failed', `${idField} ${String(id)} is already taken`);
    const record = given === undefined ? { [idField]: id, ...fields } : fields;
    const json = render(record);
    this.#reserve(json);
    if (typeof id === 'number' && id >= this.#nextId) this.#nextId = id + 1;
    const position = this.#json.length;
    this.#json.push(json);
    if (scope !== undefined) this.#scopes[position] = scope;
    if (!(given === undefined && scope === undefined && this.#extendRun(id, position)))
      this.#positions.set(recordKey(id, scope), position);
    this.#count++;
    this.#index(record, scope, position, addPosition);
    this.#charge(json);
    return json;
  }

  /** The record's JSON, or undefined when no record has this id in this scope. */
  getJson(id: RecordId, scope?: string): string | undefined {
    const position = this.#positionOf(id, scope);
    return position === undefined ? undefined : this.#json[position];
  }

  /** Replaces a record in place (PUT, and PATCH once merged): its id and place in the order stay. */
  replace(id: RecordId, fields: StoredRecord, scope?: string): string | undefined {
    const position = this.#positionOf(id, scope);
    if (position === undefined) return undefined;
    const record: Record<string, unknown> = { [this.options.idField]: id, ...fields };
    record[this.options.idField] = id;
    const json = render(record);
    const old = this.#json[position] as string;
    this.#reserve(json, cost(old));
    this.#index(readRecord(old), scope, position, removePosition);
    this.#index(record, scope, position, addPosition);
    this.#json[position] = json;
    this.#charge(json, cost(old));
    return json;
  }

  /** Removes a record; false when there was none with this id in this scope. */
  remove(id: RecordId, scope?: string): boolean {
    const position = this.#positionOf(id, scope);
    if (position === undefined) return false;
    const json = this.#json[position] as string;
    this.#index(readRecord(json), scope, position, removePosition);
    this.#json[position] = undefined;
    this.#positions.delete(recordKey(id, scope));
    this.#count--;
    this.#holes++;
    this.#charge('', cost(json));
    if (this.#holes > MIN_HOLES_TO_COMPACT && this.#holes > this.#count) this.#compact();
    return true;
  }

  /** Each record's JSON text in creation order, as the store was when this began (an admin read, a state file). */
  *jsonRecords(): Generator<string> {
    const json = this.#json;
    const count = json.length;
    for (let i = 0; i < count; i++) {
      const text = json[i];
      if (text !== undefined) yield text;
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
    const filters = Object.entries(query.filters ?? {});
    const lists = [
      ...filters
        .filter(([field]) => this.#indexes.has(field))
        .map(([field, value]) => this.#indexes.get(field)?.get(valueKey(value)) ?? []),
      ...(query.scope === undefined ? [] : [this.#indexes.get(SCOPE)?.get(valueKey(query.scope)) ?? []]),
    ];
    // One index read alone answers the query; with more constraints, each candidate is checked against all.
    const constraints = filters.length + (query.scope === undefined ? 0 : 1);
    const check = constraints > 1 || constraints > lists.length;
    const source = lists.length > 0 ? lists.reduce((a, b) => (b.length < a.length ? b : a)) : undefined;
    const out: string[] = [];
    let skip = query.offset ?? 0;
    const count = source?.length ?? this.#json.length;
    for (let i = count - 1; i >= 0 && out.length < query.limit; i--) {
      const position = source ? (source[i] as number) : i;
      const json = this.#json[position];
      if (json === undefined || (check && !this.#matches(position, json, filters, query.scope))) continue;
      if (skip > 0) skip--;
      else out.push(json);
    }
    return out;
  }

  #matches(position: number, json: string, filters: [string, unknown][], scope: string | undefined): boolean {
    if (scope !== undefined && this.#scopes[position] !== scope) return false;
    const record = readRecord(json);
    return filters.every(([field, value]) => valueKey(record[field]) === valueKey(value));
  }

  #positionOf(id: RecordId, scope: string | undefined): number | undefined {
    const { firstId, firstPosition, count } = this.#run;
    if (scope === undefined && typeof id === 'number' && id >= firstId && id < firstId + count) {
      const position = firstPosition + (id - firstId);
      // A deleted id may have been given again (an admin replace): then the map has it.
      if (this.#json[position] !== undefined) return position;
    }
    return this.#positions.get(recordKey(id, scope));
  }

  #extendRun(id: RecordId, position: number): boolean {
    const run = this.#run;
    if (typeof id !== 'number') return false;
    if (run.count === 0) this.#run = { firstId: id, firstPosition: position, count: 1 };
    else if (id === run.firstId + run.count && position === run.firstPosition + run.count) run.count++;
    else return false;
    return true;
  }

  #idAt(position: number): RecordId {
    return readRecord(this.#json[position] as string)[this.options.idField] as RecordId;
  }

  #assignId(): RecordId {
    if (this.options.idKind === 'uuid') return randomUUID();
    // Past 2^53−1 a double cannot count: the next id would repeat the last one.
    if (this.#nextId > Number.MAX_SAFE_INTEGER) {
      throw mockError(
        'store_full',
        `the mock has no id left to give: the next one would pass ${Number.MAX_SAFE_INTEGER} (2^53−1)`,
      );
    }
    const id = this.#nextId++;
    return this.options.idKind === 'string' ? String(id) : id;
  }

  #index(record: StoredRecord, scope: string | undefined, position: number, change: (list: number[], p: number) => void) {
    const entries: [string, unknown][] = this.options.indexFields.map((f) => [f, record[f]]);
    if (scope !== undefined) entries.push([SCOPE, scope]);
    for (const [field, value] of entries) {
      if (value === undefined) continue;
      const index = this.#indexes.get(field) as Map<string, number[]>;
      const key = valueKey(value);
      const list = index.get(key) ?? [];
      if (list.length === 0) index.set(key, list);
      change(list, position);
      if (list.length === 0) index.delete(key);
    }
  }

  // Rebuilds the columns without holes; positions move, so the id map and the indexes are rebuilt with them.
  #compact(): void {
    const json: string[] = [];
    const scopes: (string | undefined)[] = [];
    for (let i = 0; i < this.#json.length; i++) {
      if (this.#json[i] === undefined) continue;
      if (this.#scopes[i] !== undefined) scopes[json.length] = this.#scopes[i];
      json.push(this.#json[i] as string);
    }
    this.#json = json;
    this.#scopes = scopes;
    this.#holes = 0;
    this.#run = { firstId: 0, firstPosition: 0, count: 0 };
    this.#positions = new Map(json.map((_, position) => [recordKey(this.#idAt(position), scopes[position]), position]));
    this.#indexes = new Map([...this.options.indexFields, SCOPE].map((f) => [f, new Map()]));
    json.forEach((text, position) => {
      this.#index(readRecord(text), scopes[position], position, addPosition);
    });
  }

  #reserve(json: string, freed = 0): void {
    const needed = cost(json) - freed;
    if (this.budget.used + needed > this.budget.limit) {
      throw mockError(
        'store_full',
        `the mock's stores hold about ${this.budget.used} bytes and this record needs ${needed} more than its budget of ${this.budget.limit} bytes allows: POST /__admin/reset, or restart the mock with a larger --max-store-bytes`,
      );
    }
  }

  #charge(json: string, freed = 0): void {
    const change = (json === '' ? 0 : cost(json)) - freed;
    this.#bytes += change;
    this.#touch(change);
  }

  #touch(bytes: number): void {
    this.budget.used += bytes;
    this.budget.revision = (this.budget.revision ?? 0) + 1;
  }
}

function cost(json: string): number {
  return RECORD_OVERHEAD_BYTES + 2 * json.length;
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
