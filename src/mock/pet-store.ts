import { stringifyJson } from '../contract/lossless-json.js';
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
 * Pets in memory, laid out for a million of them: parallel arrays in creation order (the pet, its JSON) plus, per
 * status, the positions of its pets, so that a filtered or unfiltered list costs O(limit) however many pets are
 * stored. Each pet's JSON is rendered once, when it is stored, because lists are read far more often than pets are
 * written. Created ids are consecutive, so a created pet's position follows from its id; only fixture ids, which
 * can be anything, need a map.
 */
export class PetStore {
  readonly maxPets: number;
  #pets: Pet[] = [];
  #json: string[] = [];
  #byStatus = new Map<PetStatus, number[]>();
  #fixturePositions = new Map<number, number>();
  #fixtureCount = 0;
  #firstCreatedId = 1;
  #nextId = 1;

  constructor(maxPets: number) {
    this.maxPets = maxPets;
    this.clear();
  }

  get size(): number {
    return this.#pets.length;
  }

  clear(): void {
    this.#pets = [];
    this.#json = [];
    this.#byStatus = new Map(PET_STATUSES.map((s) => [s, []]));
    this.#fixturePositions = new Map();
    this.#fixtureCount = 0;
    this.#firstCreatedId = 1;
    this.#nextId = 1;
  }

  /** Replaces the contents with pets that already carry ids (fixtures); new ids continue after the largest. */
  replaceAll(pets: readonly Pet[]): void {
    this.clear();
    for (const pet of pets) {
      this.#fixturePositions.set(pet.id, this.#pets.length);
      this.#insert(pet);
    }
    this.#fixtureCount = pets.length;
    this.#firstCreatedId = pets.reduce((max, p) => Math.max(max, p.id), 0) + 1;
    this.#nextId = this.#firstCreatedId;
  }

  create(newPet: NewPet): Pet {
    if (this.#pets.length >= this.maxPets) {
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
      id: this.#nextId++,
      name: newPet.name,
      categoryId: newPet.categoryId,
      ...(newPet.status ? { status: newPet.status } : {}),
    };
    this.#insert(pet);
    return pet;
  }

  get(id: number): Pet | undefined {
    const position = this.#positionOf(id);
    return position === undefined ? undefined : this.#pets[position];
  }

  /** The pet's JSON text, rendered when it was stored; undefined for an unknown id. */
  getJson(id: number): string | undefined {
    const position = this.#positionOf(id);
    return position === undefined ? undefined : this.#json[position];
  }

  /** The first `limit` pets in creation order, of one status or of all. */
  list(limit: number, status?: PetStatus): Pet[] {
    return this.#firstOf(this.#pets, limit, status);
  }

  /** list() as a JSON array, from the pre-rendered pets. */
  listJson(limit: number, status?: PetStatus): string {
    return `[${this.#firstOf(this.#json, limit, status).join(',')}]`;
  }

  /** All pets in creation order (the admin dump). */
  all(): Pet[] {
    return this.#pets.slice();
  }

  #positionOf(id: number): number | undefined {
    if (id >= this.#firstCreatedId && id < this.#nextId) return this.#fixtureCount + (id - this.#firstCreatedId);
    return this.#fixturePositions.get(id);
  }

  #firstOf<T>(column: readonly T[], limit: number, status: PetStatus | undefined): T[] {
    if (!status) return column.slice(0, limit);
    return (this.#byStatus.get(status) ?? []).slice(0, limit).map((position) => column[position] as T);
  }

  #insert(pet: Pet): void {
    const position = this.#pets.length;
    this.#pets.push(pet);
    this.#json.push(renderPet(pet));
    if (pet.status) this.#byStatus.get(pet.status)?.push(position);
  }
}

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
