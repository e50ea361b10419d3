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

interface Entry {
  readonly pet: Pet;
  readonly json: string;
}

/**
 * Pets in memory: a map by id plus, per status, the pets in creation order, so that a filtered or
 * unfiltered list costs O(limit) however many pets are stored. Each pet's JSON is rendered once, when it is
 * stored, because lists are read far more often than pets are written.
 */
export class PetStore {
  readonly maxPets: number;
  #byId = new Map<number, Entry>();
  #all: Entry[] = [];
  #byStatus = new Map<PetStatus, Entry[]>();
  #nextId = 1;

  constructor(maxPets: number) {
    this.maxPets = maxPets;
    this.clear();
  }

  get size(): number {
    return this.#byId.size;
  }

  clear(): void {
    this.#byId.clear();
    this.#all = [];
    this.#byStatus = new Map(PET_STATUSES.map((s) => [s, []]));
    this.#nextId = 1;
  }

  /** Replaces the contents with pets that already carry ids (fixtures); new ids continue after the largest. */
  replaceAll(pets: readonly Pet[]): void {
    this.clear();
    for (const pet of pets) this.#insert(pet);
    this.#nextId = pets.reduce((max, p) => Math.max(max, p.id), 0) + 1;
  }

  create(newPet: NewPet): Pet {
    if (this.#byId.size >= this.maxPets) {
      throw mockError(
        'store_full',
        `the mock holds its maximum of ${this.maxPets} pets: POST /__admin/reset, or restart it with a larger --max-pets`,
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
    return this.#byId.get(id)?.pet;
  }

  /** The pet's JSON text, rendered when it was stored; undefined for an unknown id. */
  getJson(id: number): string | undefined {
    return this.#byId.get(id)?.json;
  }

  /** The first `limit` pets in creation order, of one status or of all. */
  list(limit: number, status?: PetStatus): Pet[] {
    return this.#slice(limit, status).map((e) => e.pet);
  }

  /** list() as a JSON array, from the pre-rendered pets. */
  listJson(limit: number, status?: PetStatus): string {
    const entries = this.#slice(limit, status);
    let json = '[';
    for (let i = 0; i < entries.length; i++) json += (i === 0 ? '' : ',') + (entries[i] as Entry).json;
    return `${json}]`;
  }

  /** All pets in creation order (the admin dump). */
  all(): Pet[] {
    return this.#all.map((e) => e.pet);
  }

  #slice(limit: number, status: PetStatus | undefined): readonly Entry[] {
    const source = status ? (this.#byStatus.get(status) ?? []) : this.#all;
    return source.length <= limit ? source : source.slice(0, limit);
  }

  #insert(pet: Pet): void {
    const entry = { pet, json: renderPet(pet) };
    this.#byId.set(pet.id, entry);
    this.#all.push(entry);
    if (pet.status) this.#byStatus.get(pet.status)?.push(entry);
  }
}

// Field order follows the Pet schema; String() keeps every digit of a bigint categoryId.
function renderPet(pet: Pet): string {
  const status = pet.status ? `,"status":"${pet.status}"` : '';
  return `{"id":${pet.id},"name":${JSON.stringify(pet.name)},"categoryId":${String(pet.categoryId)}${status}}`;
}
