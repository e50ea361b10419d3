/**
 * The bytes every store of one mock may hold together (every resource, the default store and each session share
 * it), so that no number of records or size of field takes the process down: past `limit` a create is refused.
 * `used` is an estimate on the safe side.
 */
export interface StoreBudget {
  readonly limit: number;
  used: number;
  /** Counts every change to any of the stores, so a state file knows when to be written again. */
  revision?: number;
  /**
   * With a state file: the bytes its lines may take on disk (its cap, less its first line) and what they take
   * now, so that no create makes a file past the cap (every store's records are written, fixtures too).
   */
  file?: { readonly limit: number; used: number };
}

/** A budget nothing is refused by: a store nobody writes to, or records rendered before they are paid for. */
export function unlimitedBudget(): StoreBudget {
  return { limit: Number.POSITIVE_INFINITY, used: 0 };
}
