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
}

// What a pet costs beyond its JSON text: the string's header, its slots in the column and the status index,
// with room to spare (the estimate stays on the safe side). Text counts two bytes a character, since V8 keeps
// non-Latin-1 text in UTF-16.
const PET_OVERHEAD_BYTES = 200;

function costOf(json: string): number {
  return PET_OVERHEAD_BYTES + 2 * json.length;
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
  #json: string[] = [];
  #byStatus = new Map<PetStatus, number[]>();
  #fixturePositions = new Map<number, number>();
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
    this.#json = [];
    this.#byStatus = new Map(PET_STATUSES.map((s) => [s, []]));
    this.#fixturePositions = new Map();
    this.#fixtureCount = 0;
    this.#firstCreatedId = 1;
    this.#nextId = 1;
  }

  /**
   * Replaces the contents with pets that already carry ids (fixtures); new ids continue after the largest. Throws
   * store_full, leaving the store empty, when they do not fit in what the budget has left.
   */
  replaceAll(pets: readonly Pet[]): void {
    this.clear();
    for (const pet of pets) {
      const json = renderPet(pet);
      if (this.budget.used + costOf(json) > this.budget.limit) {
        this.clear();
        throw this.#full(`the fixtures do not fit in the store's memory budget (${this.budget.limit} bytes)`);
      }
      this.#fixturePositions.set(pet.id, this.#json.length);
      this.#insert(pet, json);
    }
    this.#fixtureCount = pets.length;
    this.#firstCreatedId = pets.reduce((max, p) => Math.max(max, p.id), 0) + 1;
    this.#nextId = this.#firstCreatedId;
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
    const cost = costOf(json);
    if (this.budget.used + cost > this.budget.limit) {
      throw this.#full(
        `the mock's stores hold about ${this.budget.used} bytes and this pet needs ${cost} more than its budget of ${this.budget.limit} bytes allows`,
      );
    }
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
    const cost = costOf(json);
    this.#bytes += cost;
    this.budget.used += cost;
    this.budget.revision = (this.budget.revision ?? 0) + 1;
    if (pet.status) this.#byStatus.get(pet.status)?.push(position);
  }

  #full(why: string) {
    return mockError(
      'store_full',
      `${why}: POST /__admin/reset, or restart the mock with a larger --max-store-bytes (or more heap: node --max-old-space-size)`,
    );
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
