import type { Resource, ResourceModel } from '../../contract/resources/resource.js';
import { type RecordId, RecordStore, type RenderedRecords } from './record-store.js';
import { recordStoreOptions } from './record-store-options.js';
import { SingletonRecords } from './singleton-records.js';
import type { StoreBudget } from './store-budget.js';

/** Fixtures rendered once (see RenderedRecords), by resource key, with the resource they are records of. */
export type SharedFixtures = ReadonlyMap<string, { readonly resource: Resource; readonly rendered: RenderedRecords }>;

/**
 * A nested record's scope: its parents' ids, outermost first (`/authors/{}/books` under author a1: `["a1"]`),
 * as one key. Ids are written as text, as a path carries them; a top-level record has none.
 */
export function scopeOf(parents: readonly RecordId[]): string | undefined {
  return parents.length === 0 ? undefined : JSON.stringify(parents.map(String));
}

/**
 * One store per stateful resource of the contract (the default store, or one session's), sharing one byte
 * budget, keyed as the model keys resources (`/authors/{}/books`). Deleting a record deletes its nested
 * children, and theirs, as docs/resources.md (Delete) asks: a child is never reachable once its parent is gone.
 */
export class ResourceStores {
  readonly #stores = new Map<string, RecordStore>();
  readonly #children = new Map<string, string[]>();
  readonly #parents = new Map<string, string>();
  /** The single records written in this store (singleton-records.ts). */
  readonly singletons: SingletonRecords;

  readonly #maxRecords: number;
  readonly #budget: StoreBudget;

  constructor(model: ResourceModel, maxRecords: number, budget: StoreBudget) {
    this.#maxRecords = maxRecords;
    this.#budget = budget;
    this.singletons = new SingletonRecords(budget);
    for (const resource of model.resources) this.#add(resource);
  }

  /** The store of a resource, made now if the contract gained it since (a --watch reload). */
  storeFor(resource: Resource): RecordStore | undefined {
    return this.#stores.get(resource.key) ?? this.#add(resource);
  }

  #add(resource: Resource): RecordStore | undefined {
    const options = recordStoreOptions(resource, { maxRecords: this.#maxRecords, budget: this.#budget });
    if (!options) return undefined;
    const store = new RecordStore({ ...options, budget: this.#budget });
    this.#stores.set(resource.key, store);
    if (resource.parent !== undefined) {
      this.#children.set(resource.parent, [...(this.#children.get(resource.parent) ?? []), resource.key]);
      this.#parents.set(resource.key, resource.parent);
    }
    return store;
  }

  /**
   * Every store back to the fixtures: those with fixtures adopt them (shared, see RecordStore.adopt), the others
   * are emptied. Throws store_full, leaving every store empty, when they do not fit in what the budget has left.
   */
  startFrom(fixtures: SharedFixtures): void {
    this.clear();
    try {
      for (const { resource, rendered } of fixtures.values()) this.storeFor(resource)?.adopt(rendered);
    } catch (error) {
      this.clear();
      throw error;
    }
  }

  /** Every store by resource key, in the model's order: what a state file holds and a reloaded contract checks. */
  entries(): IterableIterator<[string, RecordStore]> {
    return this.#stores.entries();
  }

  /** The store of a resource, or undefined for one that stays stateless. */
  store(key: string): RecordStore | undefined {
    return this.#stores.get(key);
  }

  /** Deletes a record and every record nested under it; false when there was none. */
  remove(key: string, id: RecordId, parents: readonly RecordId[] = []): boolean {
    const store = this.#stores.get(key);
    if (!store?.remove(id, scopeOf(parents))) return false;
    this.singletons.dropUnder(key, scopeOf([...parents, id]) as string);
    // Most resources have no nested one: no scope to build for them.
    if (this.#children.has(key)) this.#removeChildren(key, [...parents, id]);
    return true;
  }

  /** The key of the stateful resource a resource is nested under, if any. */
  parentOf(key: string): string | undefined {
    return this.#parents.get(key);
  }

  clear(): void {
    for (const store of this.#stores.values()) store.clear();
    this.singletons.clear();
  }

  /** Empties one resource's store, and those nested under it: no child outlives its parent. */
  clearResource(key: string): void {
    this.#stores.get(key)?.clear();
    this.singletons.dropAllUnder(key);
    for (const child of this.#children.get(key) ?? []) this.clearResource(child);
  }

  #removeChildren(key: string, path: readonly RecordId[]): void {
    const children = this.#children.get(key);
    if (children === undefined) return;
    const scope = scopeOf(path) as string;
    for (const childKey of children) {
      const child = this.#stores.get(childKey) as RecordStore;
      for (const id of child.idsInScope(scope)) {
        this.singletons.dropUnder(childKey, scopeOf([...path, id]) as string);
        this.#removeChildren(childKey, [...path, id]);
      }
      child.removeScope(scope);
    }
  }
}
