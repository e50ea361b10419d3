import { readFile } from 'node:fs/promises';
import { AppError } from '../contract/app-error.js';
import type { Validator } from '../contract/compile-schema.js';
import { parseJson } from '../contract/lossless-json.js';
import type { Pet } from './pet-store.js';

/**
 * Reads a fixtures file: a JSON array of Pet, each checked against the contract's Pet schema, with unique
 * positive safe-integer ids (the store's ids are safe integers), and no more of them than the store holds. A bad
 * file stops start-up with a message that names the file, the entry and the field.
 */
export async function loadFixtures(file: string, validatePet: Validator, maxPets: number): Promise<Pet[]> {
  const fail = (what: string) => new AppError('fixtures_invalid', `Failed to load fixtures ${file}: ${what}`);
  return checkPets(await readJsonFile(file, fail), validatePet, maxPets, fail);
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

/** A parsed JSON value checked as an array of Pet (see loadFixtures); `fail` words what is wrong. */
export function checkPets(entries: unknown, validatePet: Validator, maxPets: number, fail: (what: string) => AppError): Pet[] {
  try {
    return checkEntries(entries, validatePet, maxPets, fail);
  } catch (error) {
    // The schema check walks each entry once per level: a file nested 100,000 deep exhausts the stack there.
    if (error instanceof RangeError) throw fail('nested too deeply to check: a Pet is an object of plain fields');
    throw error;
  }
}

function checkEntries(entries: unknown, validatePet: Validator, maxPets: number, fail: (what: string) => AppError): Pet[] {
  if (!Array.isArray(entries)) throw fail('must be a JSON array of Pet objects');
  // Loading them all would leave a store that refuses every create.
  if (entries.length > maxPets) {
    throw fail(`it holds ${entries.length} pets, more than --max-pets ${maxPets} allows: raise --max-pets, or use --no-fixtures`);
  }
  const seen = new Set<number>();
  entries.forEach((entry, index) => {
    const [issue] = validatePet(entry, `[${index}]`);
    if (issue) throw fail(`entry ${index}: ${issue.path}: ${issue.message}`);
    const id = (entry as { id: unknown }).id;
    if (typeof id !== 'number' || !Number.isSafeInteger(id) || id < 1) {
      throw fail(`entry ${index}: [${index}].id: must be a positive integer up to ${Number.MAX_SAFE_INTEGER}`);
    }
    if (seen.has(id)) throw fail(`entry ${index}: [${index}].id: ${id} is used by an earlier entry`);
    seen.add(id);
  });
  return entries as Pet[];
}
