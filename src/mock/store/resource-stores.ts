import type { ResourceModel } from '../../contract/resources/resource.js';
import type { StoreBudget } from '../pet-store.js';
import { type RecordId, RecordStore } from './record-store.js';
import { recordStoreOptions } from './record-store-options.js';

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

  constructor(model: ResourceModel, maxRecords: number, budget: StoreBudget) {
    for (const resource of model.resources) {
      const options = recordStoreOptions(resource, { maxRecords, budget });
      if (options) this.#stores.set(resource.key, new RecordStore({ ...options, budget }));
    }
    for (const resource of model.resources) {
      if (resource.parent === undefined || !this.#stores.has(resource.key)) continue;
      this.#children.set(resource.parent, [...(this.#children.get(resource.parent) ?? []), resource.key]);
    }
  }

  /** The store of a resource, or undefined for one that stays stateless. */
  store(key: string): RecordStore | undefined {
    return this.#stores.get(key);
  }

  /** Deletes a record and every record nested under it; false when there was none. */
  remove(key: string, id: RecordId, parents: readonly RecordId[] = []): boolean {
    const store = this.#stores.get(key);
    if (!store?.remove(id, scopeOf(parents))) return false;
    this.#removeChildren(key, [...parents, id]);
    return true;
  }

  clear(): void {
    for (const store of this.#stores.values()) store.clear();
  }

  #removeChildren(key: string, path: readonly RecordId[]): void {
    const scope = scopeOf(path) as string;
    for (const childKey of this.#children.get(key) ?? []) {
      const child = this.#stores.get(childKey) as RecordStore;
      for (const id of child.idsInScope(scope)) this.#removeChildren(childKey, [...path, id]);
      child.removeScope(scope);
    }
  }
}
