import { mockError } from '../error-codes.js';

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

// A record's header, its slots in the columns and indexes, on the safe side; text counts two bytes a character,
// since V8 keeps non-Latin-1 text in UTF-16.
const RECORD_OVERHEAD_BYTES = 240;

/** What a record kept as this JSON text is estimated to take in memory. */
export function recordCost(json: string): number {
  return RECORD_OVERHEAD_BYTES + 2 * json.length;
}

/**
 * Throws store_full when `bytes` more in memory or `fileBytes` more in the state file would pass the budget;
 * `loading` words a load that is undone (the store left empty) rather than one write refused.
 */
export function reserveBudget(budget: StoreBudget, bytes: number, fileBytes: number, loading?: string): void {
  if (budget.used + bytes > budget.limit) {
    throw mockError(
      'store_full',
      `${
        loading
          ? `${loading} the store's memory budget (${budget.limit} bytes)`
          : `the mock's stores hold about ${budget.used} bytes and this record needs ${bytes} more than its budget of ${budget.limit} bytes allows`
      }: POST /__admin/reset, or restart the mock with a larger --max-store-bytes (or more heap: node --max-old-space-size)`,
    );
  }
  const file = budget.file;
  if (file && file.used + fileBytes > file.limit) {
    throw mockError(
      'store_full',
      `${
        loading
          ? `${loading} the state file's cap (${file.limit} bytes for records)`
          : `the state file would pass its cap: its records take ${file.used} bytes and this record needs ${fileBytes} more than the ${file.limit} bytes --max-state-bytes leaves for them`
      }: POST /__admin/reset, or restart the mock with a larger --max-state-bytes`,
    );
  }
}

/** Pays (or, negative, gives back) bytes reserved, and counts the change for the state file. */
export function chargeBudget(budget: StoreBudget, bytes: number, fileBytes: number): void {
  budget.used += bytes;
  if (budget.file) budget.file.used += fileBytes;
  budget.revision = (budget.revision ?? 0) + 1;
}
