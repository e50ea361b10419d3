import { readFile } from 'node:fs/promises';
import { AppError } from '../../contract/app-error.js';
import { parseJson } from '../../contract/lossless-json.js';
import type { Resource } from '../../contract/resources/resource.js';
import { type RejectedRecord, renderRecord } from '../persistence/write-rejected.js';
import type { GivenRecords } from '../session-stores.js';
import type { ScopedRecord, StoredRecord } from '../store/record-store.js';
import { scopeOf } from '../store/resource-stores.js';
import type { AdminResource } from './admin-records.js';
import { recordChecker } from './check-records.js';

/** Records that fit the contract, by resource key, and those that do not, each with why. */
export interface LoadedFixtures {
  readonly records: GivenRecords;
  readonly rejected: readonly RejectedRecord[];
}

interface Given {
  readonly name: string;
  readonly entry: AdminResource;
  readonly parents: readonly string[];
  readonly records: readonly unknown[];
}

/**
 * Reads a fixtures file: the records every store starts from (at start, on reset, in a new session). It is either
 * a JSON array, the records of the contract's first stateful resource (`primary`: fixtures/pets.json is the Pet
 * Store's pets), or a JSON object keyed by collection path: `{"/pets": [...], "/store/orders": [...]}`, a nested
 * collection under its parents' ids (`"/authors/a1/books": [...]`). Each record is checked as a create's answer
 * would be: the contract's representation, with its id, ids unique within their parents, the parents among the
 * fixtures. A file that is none of these, names no resource, or holds more records of one resource than
 * `maxRecords` stops start-up naming it (exit 2). A record that does not fit (the contract evolved since) is set
 * aside in `rejected`, with why, and the others are loaded; in a file the user did not name (`strict` false: the
 * default one, under another contract) a resource with such a record takes none, silently.
 */
export async function loadFixtures(
  file: string,
  served: ReadonlyMap<string, AdminResource>,
  primary: Resource | undefined,
  maxRecords: number,
  strict: boolean,
): Promise<LoadedFixtures> {
  const fail = (what: string) => new AppError('fixtures_invalid', `Failed to load fixtures ${file}: ${what}`);
  const read = await readJsonFile(file, fail);
  const given: Given[] = [];
  if (Array.isArray(read)) {
    const entry = primary && served.get(primary.key);
    if (entry) given.push({ name: '', entry, parents: [], records: read });
  } else if (isObject(read) && Object.keys(read).every((key) => key.startsWith('/'))) {
    for (const [name, records] of Object.entries(read)) {
      const found = findCollection(served, name);
      if (typeof found === 'string') throw fail(found);
      if (!Array.isArray(records)) throw fail(`"${name.slice(0, 80)}" must be a JSON array of records`);
      given.push({ name, ...found, records });
    }
  } else {
    throw fail(
      'must be a JSON array of records, or an object keyed by collection path ({"/pets": [...], "/authors/a1/books": [...]})',
    );
  }
  const counts = new Map<string, number>();
  for (const { name, entry, records } of given) {
    const count = (counts.get(entry.resource.key) ?? 0) + records.length;
    counts.set(entry.resource.key, count);
    if (count > maxRecords) {
      const where = name === '' ? 'it' : `"${name}"`;
      throw fail(
        `${where} holds ${count} ${entry.resource.name}, more than --max-pets ${maxRecords} allows (records per resource): raise --max-pets, or use --no-fixtures`,
      );
    }
  }
  return checkFixtures(given, strict);
}

// Each record checked, parents before the resources nested under them, so that a child whose parent was set aside
// goes too.
function checkFixtures(given: readonly Given[], strict: boolean): LoadedFixtures {
  const accepted = new Map<string, { resource: Resource; records: ScopedRecord[] }>();
  const ids = new Map<string, Set<string>>();
  const checks = new Map<string, ReturnType<typeof recordChecker>>();
  const rejected: RejectedRecord[] = [];
  const refused = new Set<string>();
  const byDepth = [...given].sort((a, b) => a.parents.length - b.parents.length);
  for (const { name, entry, parents, records } of byDepth) {
    const { resource } = entry;
    const check = checks.get(resource.key) ?? recordChecker(entry);
    checks.set(resource.key, check);
    const scope = scopeOf(parents);
    const parentScope = `${scopeOf(parents.slice(0, -1)) ?? ''}\u0000${parents.at(-1)}`;
    const kept = accepted.get(resource.key) ?? { resource, records: [] };
    accepted.set(resource.key, kept);
    const known = ids.get(resource.key) ?? new Set();
    ids.set(resource.key, known);
    records.forEach((record, index) => {
      const path = `${name}[${index}]`;
      const orphan =
        resource.parent !== undefined && !ids.get(resource.parent)?.has(parentScope)
          ? `${path}: its parent ${resource.parent} ${parents.at(-1)} is not among the fixtures`
          : undefined;
      const reason = orphan ?? check(record, path, scope);
      if (reason === undefined) {
        kept.records.push({ record: record as StoredRecord, scope });
        known.add(`${scope ?? ''}\u0000${String((record as StoredRecord)[resource.id?.name as string])}`);
        return;
      }
      refused.add(resource.key);
      const position = name === '' ? `entry ${index}` : `${name} entry ${index}`;
      rejected.push({ store: undefined, position, reason, record: renderRecord(record) });
    });
  }
  if (strict) return { records: accepted, rejected };
  // A file the user did not name is used only where it fits whole.
  return { records: new Map([...accepted].filter(([key]) => !refused.has(key))), rejected: [] };
}

/** The resource a fixtures key names, with the parents' ids a nested one gives in the path; else why not. */
function findCollection(
  served: ReadonlyMap<string, AdminResource>,
  name: string,
): { entry: AdminResource; parents: string[] } | string {
  const exact = served.get(name);
  if (exact && exact.resource.parent === undefined) return { entry: exact, parents: [] };
  const resources = [...new Set(served.values())];
  for (const entry of resources) {
    if (entry.resource.parent === undefined) continue;
    const parents = matchTemplate(entry.resource.collectionPath, name);
    if (parents) return { entry, parents };
  }
  if (exact) {
    return `"${name.slice(0, 80)}" is nested: give its records under their parents' ids (${exact.resource.collectionPath} with the ids in place of the parameters)`;
  }
  const known = resources.map((e) => e.resource.collectionPath);
  return `"${name.slice(0, 80)}" is no stateful resource of the contract (known: ${known.join(', ') || 'none'})`;
}

// `/authors/{authorId}/books` matched against `/authors/a1/books`: ["a1"]; undefined when it does not match.
function matchTemplate(template: string, path: string): string[] | undefined {
  const want = template.split('/');
  const got = path.split('/');
  if (want.length !== got.length) return undefined;
  const values: string[] = [];
  for (const [index, segment] of want.entries()) {
    const value = got[index] as string;
    if (/^\{[^}]+\}$/.test(segment)) {
      if (value === '' || /^\{[^}]*\}$/.test(value)) return undefined;
      values.push(decoded(value));
    } else if (segment !== value) return undefined;
  }
  return values;
}

// A path segment as its text: `%2F` is `/`; a `%` that starts no escape is itself.
function decoded(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
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

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
