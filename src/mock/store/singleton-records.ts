import { lineBytes } from '../persistence/record-line.js';
import { chargeBudget, recordCost, reserveBudget, type StoreBudget, unlimitedBudget } from './store-budget.js';

/** One single record held, as a state file and the admin endpoints list it. */
export interface HeldSingleton {
  /** The single record's key (`/projects/{}/settings`). */
  readonly key: string;
  /** The key of the resource it hangs under; undefined at the top. */
  readonly parent: string | undefined;
  /** Its parent record's scope (see scopeOf); undefined at the top. */
  readonly scope: string | undefined;
  readonly json: string;
}

/**
 * The single records one store holds (docs/reference/resources.md rule 12) as their JSON text, each under the
 * parent record it belongs to (its scope, as scopeOf writes it; '' at the top). A record never written is not
 * held: it reads as its seed, so a reset or a new session costs nothing, and dropping a parent drops its records.
 * What is held is paid for from the store's byte budget and the state file's cap, as every record is.
 */
export class SingletonRecords {
  // parent resource key ('' at the top) → parent scope ('' at the top) → singleton key → the record's JSON text
  readonly #held = new Map<string, Map<string, Map<string, string>>>();
  readonly #budget: StoreBudget;

  constructor(budget: StoreBudget = unlimitedBudget()) {
    this.#budget = budget;
  }

  get(key: string, parent: string | undefined, scope: string | undefined): string | undefined {
    return this.#held
      .get(parent ?? '')
      ?.get(scope ?? '')
      ?.get(key);
  }

  /** Holds the record in place of the one held; store_full, holding what it held, when it does not fit. */
  set(key: string, parent: string | undefined, scope: string | undefined, json: string): void {
    const old = this.get(key, parent, scope);
    const bytes = recordCost(json) - (old === undefined ? 0 : recordCost(old));
    const fileBytes = lineBytes(json, scope) - (old === undefined ? 0 : lineBytes(old, scope));
    reserveBudget(this.#budget, bytes, fileBytes);
    const byScope = this.#held.get(parent ?? '') ?? new Map<string, Map<string, string>>();
    this.#held.set(parent ?? '', byScope);
    const records = byScope.get(scope ?? '') ?? new Map<string, string>();
    byScope.set(scope ?? '', records);
    records.set(key, json);
    chargeBudget(this.#budget, bytes, fileBytes);
  }

  /** The record back to its seed: held no more. */
  drop(key: string, parent: string | undefined, scope: string | undefined): void {
    const records = this.#held.get(parent ?? '')?.get(scope ?? '');
    const json = records?.get(key);
    if (json === undefined) return;
    records?.delete(key);
    this.#release([[scope ?? '', new Map([[key, json]])]]);
  }

  /** The records of one parent record, gone with it. */
  dropUnder(parent: string, scope: string): void {
    const records = this.#held.get(parent)?.get(scope);
    if (records === undefined) return;
    this.#held.get(parent)?.delete(scope);
    this.#release([[scope, records]]);
  }

  /** The records of every record of a resource, gone with its records. */
  dropAllUnder(parent: string): void {
    const byScope = this.#held.get(parent);
    if (byScope === undefined) return;
    this.#held.delete(parent);
    this.#release(byScope);
  }

  clear(): void {
    for (const parent of [...this.#held.keys()]) this.dropAllUnder(parent);
  }

  /** Every record held, top-level ones first. */
  *entries(): Generator<HeldSingleton> {
    for (const [parent, byScope] of this.#held) {
      for (const [scope, records] of byScope) {
        for (const [key, json] of records) {
          yield { key, parent: parent === '' ? undefined : parent, scope: scope === '' ? undefined : scope, json };
        }
      }
    }
  }

  #release(byScope: Iterable<[string, ReadonlyMap<string, string>]>): void {
    let bytes = 0;
    let fileBytes = 0;
    for (const [scope, records] of byScope) {
      for (const json of records.values()) {
        bytes += recordCost(json);
        fileBytes += lineBytes(json, scope === '' ? undefined : scope);
      }
    }
    if (bytes > 0) chargeBudget(this.#budget, -bytes, -fileBytes);
  }
}
