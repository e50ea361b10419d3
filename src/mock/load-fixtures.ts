import { readFile } from 'node:fs/promises';
import { AppError } from '../contract/app-error.js';
import type { Validator } from '../contract/compile-schema.js';
import { parseJson } from '../contract/lossless-json.js';
import type { Pet } from './pet-store.js';
import { type RejectedRecord, renderRecord } from './persistence/write-rejected.js';

/** Records that fit the contract, and those that no longer do, each with why. */
export interface CheckedRecords {
  readonly valid: Pet[];
  readonly rejected: RejectedRecord[];
}

/**
 * Reads a fixtures file: a JSON array of Pet, each checked against the contract's Pet schema, with unique
 * positive safe-integer ids (the store's ids are safe integers), and no more of them than the store holds. A file
 * that is not such an array stops start-up with a message that names it; an entry that does not fit the contract
 * (it evolved since the file was written) is set aside with why, and the others are loaded.
 */
export async function loadFixtures(
  file: string,
  validatePet: Validator,
  maxPets: number,
  collection?: string,
): Promise<CheckedRecords> {
  const fail = (what: string) => new AppError('fixtures_invalid', `Failed to load fixtures ${file}: ${what}`);
  const read = await readJsonFile(file, fail);
  // A file for several resources is an object keyed by collection path (see resource-fixtures.ts): the pets are under theirs.
  const keyed = collection !== undefined && isObject(read) && Object.keys(read).every((key) => key.startsWith('/'));
  const entries = keyed ? (Object.hasOwn(read, collection) ? read[collection] : []) : read;
  if (!Array.isArray(entries))
    throw fail(keyed ? `"${collection}" must be a JSON array of Pet objects` : 'must be a JSON array of Pet objects');
  const checker = petChecker(validatePet);
  const checked: CheckedRecords = { valid: [], rejected: [] };
  entries.forEach((entry, index) => {
    const reason = checker(entry, `[${index}]`);
    if (reason === undefined) checked.valid.push(entry as Pet);
    else checked.rejected.push({ store: undefined, position: `entry ${index}`, reason, record: renderRecord(entry) });
  });
  // Loading them all would leave a store that refuses every create.
  if (checked.valid.length > maxPets) {
    throw fail(
      `it holds ${checked.valid.length} pets, more than --max-pets ${maxPets} allows: raise --max-pets, or use --no-fixtures`,
    );
  }
  return checked;
}

/** A JSON file read with exact integers; `fail` words why it cannot be (ENOENT, not valid JSON: …). */
export async function readJsonFile(file: string, fail: (what: string) => AppError): Promise<unknown> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    throw fail((error as NodeJS.ErrnoException).code ?? String(error));
  }
  try {
    return parseJson(text);
  } catch (error) {
    throw fail(`not valid JSON: ${(error as Error).message}`);
  }
}

/**
 * Checks one record after another of one store: against the contract's Pet schema, with a positive safe-integer id
 * not used by an earlier one. Returns why a record does not fit, undefined when it does.
 */
export function petChecker(validatePet: Validator): (entry: unknown, path: string) => string | undefined {
  const seen = new Set<number>();
  return (entry, path) => {
    let issue: { path: string; message: string } | undefined;
    try {
      [issue] = validatePet(entry, path);
    } catch (error) {
      // The schema check walks each entry once per level: an entry nested 100,000 deep exhausts the stack there.
      if (error instanceof RangeError) return `${path}: nested too deeply to check: a Pet is an object of plain fields`;
      throw error;
    }
    if (issue) return `${issue.path}: ${issue.message}`;
    const id = (entry as { id: unknown }).id;
    if (typeof id !== 'number' || !Number.isSafeInteger(id) || id < 1) {
      return `${path}.id: must be a positive integer up to ${Number.MAX_SAFE_INTEGER}`;
    }
    if (seen.has(id)) return `${path}.id: ${id} is used by an earlier entry`;
    seen.add(id);
    return undefined;
  };
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
