import { AppError } from '../../contract/app-error.js';
import type { Resource } from '../../contract/resources/resource.js';
import { readJsonFile } from '../load-fixtures.js';
import type { StoredRecord } from '../store/record-store.js';
import type { AdminResource } from './admin-records.js';
import { checkRecords } from './check-records.js';

/** Fixtures of the generically served resources, by resource key. */
export type ResourceFixtures = ReadonlyMap<string, readonly StoredRecord[]>;

/**
 * The records each served resource starts from (at start, on reset, in a new session). A fixtures file is either
 * a JSON array, the records of the contract's first stateful resource (fixtures/pets.json is the Pet Store's
 * pets), or a JSON object keyed by collection path or resource key (`{"/pets": [...], "/store/orders": [...]}`).
 * Each record is checked as the contract's representation, with its id, ids unique; a record that does not fit
 * stops start-up naming it (exit 2). Nested resources cannot be given fixtures yet: their records need parents.
 */
export async function loadResourceFixtures(
  file: string,
  first: Resource | undefined,
  served: ReadonlyMap<string, AdminResource>,
  /** Collection paths whose records another store keeps (the shipped Pet Store's pets): allowed, not read here. */
  elsewhere: readonly string[],
  maxRecords: number,
  /** False for the default fixtures file, which the user did not name: records that do not fit are not used, silently. */
  strict: boolean,
): Promise<ResourceFixtures> {
  const fail = (what: string) => new AppError('fixtures_invalid', `Failed to load fixtures ${file}: ${what}`);
  const read = await readJsonFile(file, fail);
  if (!strict && !Array.isArray(read)) return new Map();
  const keyed = typeof read === 'object' && read !== null && Object.keys(read).every((key) => key.startsWith('/'));
  if (!Array.isArray(read) && !keyed) {
    // The other store reads the file too, and says what it must be in its own words.
    if (elsewhere.length > 0) return new Map();
    throw fail('must be a JSON array of records, or an object keyed by collection path ({"/orders": [...]})');
  }
  const given: [string, unknown][] = Array.isArray(read)
    ? first === undefined
      ? []
      : [[first.collectionPath, read]]
    : typeof read === 'object' && read !== null
      ? Object.entries(read)
      : [];
  const found = new Map<string, StoredRecord[]>();
  for (const [name, records] of given) {
    const entry = served.get(name);
    if (!entry) {
      if (elsewhere.includes(name)) continue;
      const known = [...new Set([...served.values()].map((e) => e.resource.collectionPath)), ...elsewhere];
      throw fail(`"${name.slice(0, 80)}" is no stateful resource of the contract (known: ${known.join(', ') || 'none'})`);
    }
    const { resource } = entry;
    if (resource.parent !== undefined) throw fail(`"${name}": fixtures for a nested resource are not supported yet`);
    if (!Array.isArray(records)) throw fail(`"${name}" must be a JSON array of records`);
    if (records.length > maxRecords)
      throw fail(`"${name}" holds ${records.length} records, more than --max-pets ${maxRecords} allows`);
    const problem = checkRecords(entry, records, name);
    if (problem !== undefined && !strict) continue;
    if (problem !== undefined) throw fail(problem);
    found.set(resource.key, records as StoredRecord[]);
  }
  return found;
}
