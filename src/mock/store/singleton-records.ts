/**
 * The single records one store holds (docs/reference/resources.md rule 12) as their JSON text, each under the
 * parent record it belongs to (its scope, as scopeOf writes it; '' at the top). A record never written is not
 * held: it reads as its seed, so a reset or a new session costs nothing, and dropping a parent drops its records.
 */
export class SingletonRecords {
  // parent resource key ('' at the top) → parent scope → singleton key → the record's JSON text
  readonly #held = new Map<string, Map<string, Map<string, string>>>();

  get(key: string, parent: string | undefined, scope: string | undefined): string | undefined {
    return this.#held
      .get(parent ?? '')
      ?.get(scope ?? '')
      ?.get(key);
  }

  set(key: string, parent: string | undefined, scope: string | undefined, json: string): void {
    const byScope = this.#held.get(parent ?? '') ?? new Map<string, Map<string, string>>();
    this.#held.set(parent ?? '', byScope);
    const records = byScope.get(scope ?? '') ?? new Map<string, string>();
    byScope.set(scope ?? '', records);
    records.set(key, json);
  }

  /** The records of one parent record, gone with it. */
  dropUnder(parent: string, scope: string): void {
    this.#held.get(parent)?.delete(scope);
  }

  /** The records of every record of a resource, gone with its records. */
  dropAllUnder(parent: string): void {
    this.#held.delete(parent);
  }

  clear(): void {
    this.#held.clear();
  }
}
