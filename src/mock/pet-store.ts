import { parseJson, stringifyJson } from '../contract/lossless-json.js';
import { mockError } from './error-codes.js';

export type PetStatus = 'available' | 'pending' | 'sold';
export const PET_STATUSES: readonly PetStatus[] = ['available', 'pending', 'sold'];

/** categoryId is a bigint only when a double cannot hold it exactly. */
export interface Pet {
  readonly id: number;
  readonly name: string;
  readonly categoryId: number | bigint;
  readonly status?: PetStatus;
}

export interface NewPet {
  readonly name: string;
  readonly categoryId: number | bigint;
  readonly status?: PetStatus | undefined;
}

/**
 * The bytes every store of one mock may hold together (sessions share it), so that no number of pets or size of
 * name takes the process down: past `limit` a create is refused. `used` is an estimate on the safe side.
 */
export interface StoreBudget {
  readonly limit: number;
  used: number;
  /** Counts every change to any of the stores, so a state file knows when to be written again. */
  revision?: number;
  /**
   * With a state file: the bytes its records may take on disk (its cap, less room for its other lines) and what
   * they take now, so that no create makes a file past the cap (every store's records are written, fixtures too).
   */
  file?: { readonly limit: number; used: number };
}

/**
 * Records rendered once and shared by every store that starts from them (the fixtures): a new session copies the
 * positions, never the records, so a 35 MB fixtures file costs its 35 MB once, not once a session.
 */
export interface RenderedRecords {
  readonly json: readonly string[];
  readonly byStatus: ReadonlyMap<PetStatus, readonly number[]>;
  readonly positions: ReadonlyMap<number, number>;
  readonly nextId: number;
  /** What the rendered records take in memory, once (see StoreBudget). */
  readonly bytes: number;
  /** What they take in a state file, in each store that holds them. */
  readonly fileBytes: number;
}

/** Renders pets that already carry ids (fixtures), once, for stores to share (see PetStore.adopt). */
export function renderRecords(pets: readonly Pet[]): RenderedRecords {
  const json: string[] = [];
  const byStatus = new Map<PetStatus, number[]>(PET_STATUSES.map((s) => [s, []]));
  const positions = new Map<number, number>();
  let bytes = 0;
  let fileBytes = 0;
  for (const pet of pets) {
    const text = renderPet(pet);
    positions.set(pet.id, json.length);
    if (pet.status) byStatus.get(pet.status)?.push(json.length);
    json.push(text);
    bytes += costOf(text);
    fileBytes += fileCostOf(text);
  }
  const nextId = pets.reduce((max, p) => Math.max(max, p.id), 0) + 1;
  return { json, byStatus, positions, nextId, bytes, fileBytes };
}

// What a pet costs beyond its JSON text: the string's header, its slots in the column and the status index,
// with room to spare (the estimate stays on the safe side). Text counts two bytes a character, since V8 keeps
// non-Latin-1 text in UTF-16.
const PET_OVERHEAD_BYTES = 200;

function costOf(json: string): number {
  return PET_OVERHEAD_BYTES + 2 * json.length;
}

// A store holding shared records pays for its own slots only: a position in its column and in a status index.
const SHARED_SLOT_BYTES = 16;

// A record's line in a state file, newline included.
function fileCostOf(json: string): number {
  return Buffer.byteLength(json) + 1;
}

/**
 * Pets in memory, laid out for a million of them: their JSON in creation order plus, per status, the positions of
 * its pets, so that a filtered or unfiltered list costs O(limit) however many pets are stored. Each pet's JSON is
 * rendered once, when it is stored, because every operation answers with it; a pet as an object is read back
 * from it on the rare call that wants one, so a million pets are not also held as a million objects. Created ids
 * are consecutive, so a created pet's position follows from its id; only fixture ids, which can be anything,
 * need a map.
 */
export class PetStore {
  readonly maxPets: number;
  readonly budget: StoreBudget;
  #bytes = 0;
  #fileBytes = 0;
  #json: string[] = [];
  #byStatus = new Map<PetStatus, number[]>();
  #fixturePositions: ReadonlyMap<number, number> = new Map();
  #fixtureCount = 0;
  #firstCreatedId = 1;
  #nextId = 1;

  constructor(maxPets: number, budget: StoreBudget = { limit: Number.POSITIVE_INFINITY, used: 0 }) {
    this.maxPets = maxPets;
    this.budget = budget;
    this.clear();
  }

  /** The bytes this store's pets are estimated to take (see StoreBudget). */
  get bytes(): number {
    return this.#bytes;
  }

  get size(): number {
    return this.#json.length;
  }

  clear(): void {
    this.budget.revision = (this.budget.revision ?? 0) + 1;
    this.budget.used -= this.#bytes;
    this.#bytes = 0;
    if (this.budget.file) this.budget.file.used -= this.#fileBytes;
    this.#fileBytes = 0;
    this.#json = [];
    this.#byStatus = new Map(PET_STATUSES.map((s) => [s, []]));
    this.#fixturePositions = new Map();
    this.#fixtureCount = 0;
    this.#firstCreatedId = 1;
    this.#nextId = 1;
  }

  /**
   * Replaces the contents with pets that already carry ids (fixtures, a state file); new ids continue after the
   * largest. Throws store_full, leaving the store empty, when they do not fit in what the budget has left.
   */
  replaceAll(pets: readonly Pet[]): void {
    const records = renderRecords(pets);
    this.#take(records, records.bytes, 'the records do not fit in');
  }

  /**
   * Starts from shared records (see RenderedRecords): their strings and id map are shared, only the columns are
   * this store's. Charged a slot per record, since the records themselves are paid for once by whoever rendered
   * them; and their full size in the state file, which holds every store's records.
   */
  adopt(records: RenderedRecords): void {
    this.#take(records, records.json.length * SHARED_SLOT_BYTES, 'the fixtures do not fit in');
  }

  #take(records: RenderedRecords, bytes: number, loading: string): void {
    this.clear();
    this.#checkRoom(bytes, records.fileBytes, loading);
    this.#json = records.json.slice();
    this.#byStatus = new Map(PET_STATUSES.map((s) => [s, (records.byStatus.get(s) ?? []).slice()]));
    this.#fixturePositions = records.positions;
    this.#fixtureCount = records.json.length;
    this.#firstCreatedId = records.nextId;
    this.#nextId = records.nextId;
    this.#charge(bytes, records.fileBytes);
  }

  create(newPet: NewPet): Pet {
    if (this.#json.length >= this.maxPets) {
      throw mockError(
        'store_full',
        `the mock holds its maximum of ${this.maxPets} pets: POST /__admin/reset, or restart it with a larger --max-pets`,
      );
    }
    // Past 2^53−1 a double cannot count: the next id would repeat the last one. Fixtures may hold ids up to
    // that limit (to exercise large ids); what is left above the largest is all the store can still hand out.
    if (this.#nextId > Number.MAX_SAFE_INTEGER) {
      throw mockError(
        'store_full',
        `the mock has no id left to give: the next one would pass ${Number.MAX_SAFE_INTEGER} (2^53−1), the largest it assigns. POST /__admin/reset, or use fixtures with smaller ids`,
      );
    }
    const pet: Pet = {
      id: this.#nextId,
      name: newPet.name,
      categoryId: newPet.categoryId,
      ...(newPet.status ? { status: newPet.status } : {}),
    };
    const json = renderPet(pet);
    this.#checkRoom(costOf(json), fileCostOf(json));
    this.#nextId++;
    this.#insert(pet, json);
    return pet;
  }

  get(id: number): Pet | undefined {
    const json = this.getJson(id);
    return json === undefined ? undefined : readPet(json);
  }

  /** The pet's JSON text, rendered when it was stored; undefined for an unknown id. */
  getJson(id: number): string | undefined {
    const position = this.#positionOf(id);
    return position === undefined ? undefined : this.#json[position];
  }

  /**
   * The `limit` newest pets, newest first, of one status or of all: a pet an app has just created is at the top
   * of the default page, however many fixtures there are. Fixtures count as created in file order.
   */
  list(limit: number, status?: PetStatus): Pet[] {
    return this.listJsonParts(limit, status).map(readPet);
  }

  /** list() as the pets' pre-rendered JSON texts, for a caller that joins or streams them. */
  listJsonParts(limit: number, status?: PetStatus): string[] {
    return this.#newestOf(this.#json, limit, status);
  }

  /** list() as a JSON array, from the pre-rendered pets. */
  listJson(limit: number, status?: PetStatus): string {
    return `[${this.listJsonParts(limit, status).join(',')}]`;
  }

  /** All pets in creation order. */
  all(): Pet[] {
    return this.#json.map(readPet);
  }

  /** Each pet's JSON text in creation order, as the store was when this began (what a state file holds). */
  *jsonRecords(): Generator<string> {
    const json = this.#json;
    const count = json.length;
    for (let i = 0; i < count; i++) yield json[i] as string;
  }

  /**
   * All pets as a JSON array in creation order, in pieces of about 64 KiB, for a dump that is streamed rather than
   * rendered whole (a store of gigabytes has no one string). Sees the store as it was when the dump began.
   */
  *allJsonChunks(): Generator<string> {
    const json = this.#json;
    const count = json.length;
    let chunk = '[';
    for (let i = 0; i < count; i++) {
      chunk += i === 0 ? json[i] : `,${json[i]}`;
      if (chunk.length >= CHUNK_CHARS) {
        yield chunk;
        chunk = '';
      }
    }
    yield `${chunk}]`;
  }

  #positionOf(id: number): number | undefined {
    if (id >= this.#firstCreatedId && id < this.#nextId) return this.#fixtureCount + (id - this.#firstCreatedId);
    return this.#fixturePositions.get(id);
  }

  // slice and reverse are native and a tenth of the cost of a loop that pushes: this is every list request.
  #newestOf(column: readonly string[], limit: number, status: PetStatus | undefined): string[] {
    if (!status) return column.slice(Math.max(0, column.length - limit)).reverse();
    const positions = this.#byStatus.get(status) ?? [];
    return positions
      .slice(Math.max(0, positions.length - limit))
      .reverse()
      .map((position) => column[position] as string);
  }

  #insert(pet: Pet, json: string): void {
    const position = this.#json.length;
    this.#json.push(json);
    this.#charge(costOf(json), fileCostOf(json));
    if (pet.status) this.#byStatus.get(pet.status)?.push(position);
  }

  #charge(bytes: number, fileBytes: number): void {
    this.#bytes += bytes;
    this.budget.used += bytes;
    this.#fileBytes += fileBytes;
    if (this.budget.file) this.budget.file.used += fileBytes;
    this.budget.revision = (this.budget.revision ?? 0) + 1;
  }

  // Throws store_full when `bytes` more in memory or `fileBytes` more in the state file would pass a budget;
  // `loading` words a load that is undone (the store left empty) rather than one create refused.
  #checkRoom(bytes: number, fileBytes: number, loading?: string): void {
    const { budget } = this;
    const full = (why: string, option: string) => {
      if (loading) this.clear();
      return mockError('store_full', `${why}: POST /__admin/reset, or restart the mock with ${option}`);
    };
    if (budget.used + bytes > budget.limit) {
      throw full(
        loading
          ? `${loading} the store's memory budget (${budget.limit} bytes)`
          : `the mock's stores hold about ${budget.used} bytes and this pet needs ${bytes} more than its budget of ${budget.limit} bytes allows`,
        'a larger --max-store-bytes (or more heap: node --max-old-space-size)',
      );
    }
    const file = budget.file;
    if (file && file.used + fileBytes > file.limit) {
      throw full(
        loading
          ? `${loading} the state file's cap (${file.limit} bytes for records)`
          : `the state file would pass its cap: its records take ${file.used} bytes and this pet needs ${fileBytes} more than the ${file.limit} bytes --max-state-bytes leaves for them`,
        'a larger --max-state-bytes',
      );
    }
  }
}

const CHUNK_CHARS = 64 * 1024;

/**
 * Field order follows the Pet schema, and only the schema's fields are rendered (a fixture may carry others).
 * JSON.stringify gives one flat string, a third of the memory of a concatenated one; a bigint categoryId, which it
 * cannot render, goes through the exact-integer stringifier.
 */
function renderPet(pet: Pet): string {
  const { id, name, categoryId, status } = pet;
  const fields = status ? { id, name, categoryId, status } : { id, name, categoryId };
  return typeof categoryId === 'bigint' ? stringifyJson(fields) : JSON.stringify(fields);
}

// The stored JSON holds the schema's fields only, an int64 categoryId beyond 2^53 as its exact digits.
function readPet(json: string): Pet {
  return parseJson(json) as unknown as Pet;
}
