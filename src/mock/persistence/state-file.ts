import { once } from 'node:events';
import { createReadStream, createWriteStream, existsSync } from 'node:fs';
import { open, rename, rm, stat } from 'node:fs/promises';
import { createInterface } from 'node:readline';
import { AppError } from '../../contract/app-error.js';
import { describeIssues } from '../../contract/compile-schema.js';
import { parseJson, stringifyJson } from '../../contract/lossless-json.js';
import type { Resource } from '../../contract/resources/resource.js';
import type { AdminResource } from '../resource/admin-records.js';
import type { SingletonPlan } from '../resource/singleton-plans.js';
import type { HeldSingleton } from '../store/singleton-records.js';
import { recordChecker } from '../resource/check-records.js';
import { readJsonFile } from '../resource/load-fixtures.js';
import type { GivenRecords } from '../session-stores.js';
import { readSession } from '../session-stores.js';
import type { ScopedRecord, StoredRecord } from '../store/record-store.js';
import { scopeOf } from '../store/resource-stores.js';
import { temporaryName } from './temporary-files.js';
import { type RejectedRecord, renderRecord } from './write-rejected.js';

export interface SavedState {
  /** The stores a state file holds, the default store under "", each session under its name. */
  readonly stores: ReadonlyMap<string, GivenRecords>;
  /** Records the contract no longer accepts, for a side file (see writeRejected). */
  readonly rejected: readonly RejectedRecord[];
  /** The single records each store holds (rule 12), by store name as `stores`. */
  readonly singletons: ReadonlyMap<string, readonly HeldSingleton[]>;
  /** How many records were kept. */
  readonly kept: number;
}

/**
 * Version 3 is JSON Lines: `{"version":3}`, then for each store and resource a line `["store", name, resource]`
 * (the resource's key, `/pets`, `/authors/{}/books`) followed by its records, one a line (see recordLine: a nested
 * record's line carries its parents' ids), then for each single record written in a store (rule 12) a line
 * `["singleton", name, key]` followed by its records, one a line, in the same form. Read a line at a time, so a file
 * the mock wrote can always be read back: no string holds more than one record (V8 caps a string at about 512 MiB;
 * version 1 was one string and bricked past it). Version 2 is version 3 without single records, and is still read;
 * it is 3 so that an older mock refuses a file holding them rather than reading their lines as another's records.
 */
const VERSION = 3;
const READ_VERSIONS = new Set([2, 3]);
// Version 1 was `{"version":1,"stores":{"":[…]}}`, read whole. Such a file is still read, up to a size that fits
// in one string; anything the mock writes now is version 2.
const LEGACY = /^\s*\{\s*"version"\s*:\s*1\s*[,}]/;
const LEGACY_MAX_BYTES = 256 * 1024 * 1024;
const CHUNK_CHARS = 64 * 1024;

/**
 * Reads a state file written by writeStateFile (or version 1). Undefined when there is none yet (the first start);
 * a file that cannot be read as one is AppError('state_invalid') naming it: it is never silently discarded, since
 * that would lose the records it holds the next time it is written. A record the contract no longer accepts is set
 * aside in `rejected`, and the others are read.
 */
export async function readStateFile(
  file: string,
  /** The served resources by key and by collection path (see adminResources). */
  served: ReadonlyMap<string, AdminResource>,
  /** The key of the resource a file of an older version holds (the contract's first): its records were filed under a schema name. */
  primary: string | undefined,
  maxRecords: number,
  /** The single records the mock keeps, by key (see singletonPlans). */
  singletons: ReadonlyMap<string, SingletonPlan> = new Map(),
): Promise<SavedState | undefined> {
  const fail = (what: string) => new AppError('state_invalid', `Failed to load state file ${file}: ${what}`);
  if (!existsSync(file)) return undefined;
  const read = new StoresRead(maxRecords);
  const primaryEntry = primary === undefined ? undefined : served.get(primary);
  if (LEGACY.test(await firstBytes(file, fail))) {
    if ((await stat(file)).size > LEGACY_MAX_BYTES) {
      throw fail(
        `a version 1 state file larger than ${LEGACY_MAX_BYTES} bytes cannot be read: start an older petstore-mock on it and reset it, or remove it`,
      );
    }
    readLegacy(await readJsonFile(file, fail), read, primaryEntry, fail);
    return read.result();
  }
  const lines = createInterface({ input: createReadStream(file, 'utf8'), crlfDelay: Number.POSITIVE_INFINITY });
  let number = 0;
  let section:
    | { name: string; entry: AdminResource | undefined; resource: string; plan?: undefined }
    | { name: string; entry?: undefined; resource: string; plan: SingletonPlan | undefined }
    | undefined;
  for await (const line of lines) {
    number++;
    if (line.trim() === '') continue;
    if (number === 1) {
      const header = parseLine(line);
      if (typeof header !== 'object' || header === null || !READ_VERSIONS.has((header as { version: number }).version)) {
        throw fail(`not a petstore-mock state file: its first line must be {"version":${VERSION}} (or 2)`);
      }
      continue;
    }
    if (line.startsWith('["store"')) {
      const parsed = parseLine(line);
      if (!Array.isArray(parsed) || parsed[0] !== 'store' || typeof parsed[1] !== 'string' || typeof parsed[2] !== 'string') {
        throw fail(`line ${number}: expected ["store", name, resource]`);
      }
      const [, name, resource] = parsed as [string, string, string];
      if (name !== '' && !isSessionName(name))
        throw fail(`line ${number}: ${JSON.stringify(name.slice(0, 70))} is not a session name`);
      // Files before resource keys named the first resource's records by its schema (`Pet`).
      const entry = served.get(resource) ?? (resource.startsWith('/') ? undefined : primaryEntry);
      section = { name, entry, resource };
      if (entry) read.open(name, entry);
      continue;
    }
    if (line.startsWith('["singleton"')) {
      const parsed = parseLine(line);
      if (!Array.isArray(parsed) || typeof parsed[1] !== 'string' || typeof parsed[2] !== 'string') {
        throw fail(`line ${number}: expected ["singleton", name, key]`);
      }
      const [, name, key] = parsed as [string, string, string];
      if (name !== '' && !isSessionName(name))
        throw fail(`line ${number}: ${JSON.stringify(name.slice(0, 70))} is not a session name`);
      section = { name, resource: key, plan: singletons.get(key) };
      continue;
    }
    if (section === undefined) throw fail(`line ${number}: a record before any ["store", name, resource] line`);
    const position = `line ${number}`;
    const value = parseLine(line);
    if (value === undefined) read.reject(section.name, position, 'not valid JSON', JSON.stringify(line.slice(0, 1024)));
    else if ('plan' in section && section.plan !== undefined)
      read.addSingleton(section.name, section.plan, value, position, line);
    else if ('plan' in section)
      read.reject(section.name, position, `the contract has no single record ${section.resource.slice(0, 80)} here`, line);
    else if (!section.entry)
      read.reject(section.name, position, `the contract has no resource ${section.resource.slice(0, 80)} here`, line);
    else read.add(section.name, section.entry, value, position, line);
  }
  return read.result();
}

/**
 * Writes every store atomically: into a temporary file beside the target, then renamed over it (rename is atomic
 * on one file system), so a crash or a full disk mid-write leaves the previous state whole. Streamed from the
 * stores' pre-rendered records, so a large store is never one string. Resolves to the bytes written.
 */
export async function writeStateFile(
  file: string,
  /** Store name ("" the default one), resource key, its records' lines (see RecordStore.fileLines). */
  stores: Iterable<readonly [string, string, { fileLines(): Iterable<string> }]>,
  /** Store name, single record key, its records' lines (see SessionStores.singletonSections). */
  singletons: Iterable<readonly [string, string, { fileLines(): Iterable<string> }]> = [],
): Promise<number> {
  const temporary = temporaryName(file);
  const out = createWriteStream(temporary);
  try {
    let chunk = `{"version":${VERSION}}\n`;
    const flush = async () => {
      if (!out.write(chunk)) await once(out, 'drain');
      chunk = '';
    };
    for (const [kind, sections] of [
      ['store', stores],
      ['singleton', singletons],
    ] as const) {
      for (const [name, key, store] of sections) {
        chunk += `${JSON.stringify([kind, name, key])}\n`;
        for (const record of store.fileLines()) {
          chunk += `${record}\n`;
          if (chunk.length >= CHUNK_CHARS) await flush();
        }
      }
    }
    await flush();
    out.end();
    await once(out, 'close');
    await rename(temporary, file);
    return out.bytesWritten;
  } catch (error) {
    out.destroy();
    await rm(temporary, { force: true });
    throw error;
  }
}

type Check = (record: unknown, path: string, scope?: string) => string | undefined;

/** Records read so far, store by store and resource by resource, checked as they come. */
class StoresRead {
  readonly #stores = new Map<string, Map<string, { resource: Resource; records: ScopedRecord[]; check: Check }>>();
  readonly #rejected: RejectedRecord[] = [];
  // Store name → its single records, with where each stood, for the check of their parents once all is read.
  readonly #singletons = new Map<string, { held: HeldSingleton; plan: SingletonPlan; position: string; text: string }[]>();
  readonly #maxRecords: number;
  #kept = 0;

  constructor(maxRecords: number) {
    this.#maxRecords = maxRecords;
  }

  open(name: string, entry: AdminResource) {
    const store = this.#stores.get(name) ?? new Map();
    this.#stores.set(name, store);
    const key = entry.resource.key;
    if (!store.has(key)) store.set(key, { resource: entry.resource, records: [], check: recordChecker(entry) });
    return store.get(key) as { resource: Resource; records: ScopedRecord[]; check: Check };
  }

  add(name: string, entry: AdminResource, value: unknown, position: string, text: string) {
    const read = this.open(name, entry);
    const nested = readNested(entry.resource, value);
    if (typeof nested === 'string') return this.reject(name, position, nested, text);
    const { record, scope } = nested;
    const reason =
      read.records.length >= this.#maxRecords
        ? `more records than --max-pets ${this.#maxRecords} (records per resource)`
        : read.check(record, '', scope);
    if (reason !== undefined) return this.reject(name, position, reason.replace(/^\./, ''), text);
    read.records.push({ record: record as StoredRecord, scope });
    this.#kept++;
  }

  // A single record: the GET's schema passes it, at most one a key and parent; its parent is checked in result().
  addSingleton(name: string, plan: SingletonPlan, value: unknown, position: string, text: string) {
    const { key, parent } = plan.singleton;
    const nested = parent ? readScoped(value, `a record of ${key}`) : { record: value as StoredRecord };
    if (typeof nested === 'string') return this.reject(name, position, nested, text);
    const issues = plan.validate(nested.record, '');
    if (issues.length > 0) return this.reject(name, position, describeIssues(issues).replace(/^\./, ''), text);
    const list = this.#singletons.get(name) ?? [];
    this.#singletons.set(name, list);
    if (list.some(({ held }) => held.key === key && held.scope === nested.scope))
      return this.reject(name, position, `a second record of ${key} for the same parent`, text);
    list.push({ held: { key, parent, scope: nested.scope, json: stringifyJson(nested.record) }, plan, position, text });
    this.#kept++;
  }

  reject(store: string, position: string, reason: string, record: string) {
    this.#rejected.push({ store, position, reason, record });
  }

  result(): SavedState {
    const singletons = new Map<string, HeldSingleton[]>();
    for (const [name, list] of this.#singletons) {
      const kept = list.filter(({ held, plan, position, text }) => {
        const missing = plan.parent && this.#parentMissing(name, plan.parent, held.scope as string);
        if (missing) {
          this.#kept--;
          this.reject(name, position, missing, text);
        }
        return !missing;
      });
      singletons.set(
        name,
        kept.map(({ held }) => held),
      );
    }
    return {
      stores: new Map([...this.#stores].map(([name, byKey]) => [name, byKey])),
      singletons,
      rejected: this.#rejected,
      kept: this.#kept,
    };
  }

  // A single record under a parent record the file does not hold could never be read: it is set aside.
  #parentMissing(name: string, parent: Resource, scope: string): string | undefined {
    const read = this.#stores.get(name)?.get(parent.key);
    const idName = parent.id?.name;
    if (!read || idName === undefined) return undefined;
    const ids = JSON.parse(scope) as string[];
    const outer = ids.length > 1 ? JSON.stringify(ids.slice(0, -1)) : undefined;
    const id = ids[ids.length - 1];
    const found = read.records.some(({ record, scope }) => scope === outer && String(record[idName]) === id);
    return found ? undefined : `no record of ${parent.key} has ${idName} ${id} in this store`;
  }
}

// A nested resource's line is [parents' ids, record] (see recordLine); another's is the record.
function readNested(resource: Resource, value: unknown): ScopedRecord | string {
  if (resource.parent === undefined) return { record: value as StoredRecord };
  return readScoped(value, `a record of the nested ${resource.key}`);
}

// A line [parents' ids, record] (see recordLine), of `what`.
function readScoped(value: unknown, what: string): ScopedRecord | string {
  const [parents, record] = Array.isArray(value) ? value : [];
  if (!Array.isArray(parents) || !parents.every((id) => typeof id === 'string' || typeof id === 'number')) {
    return `${what} is a line [parents' ids, record]`;
  }
  return { record: record as StoredRecord, scope: scopeOf(parents as (string | number)[]) };
}

function readLegacy(value: unknown, read: StoresRead, primary: AdminResource | undefined, fail: (what: string) => AppError) {
  const { stores } = (typeof value === 'object' && value !== null ? value : {}) as Record<string, unknown>;
  if (typeof stores !== 'object' || stores === null || Array.isArray(stores)) {
    throw fail('not a petstore-mock state file: expected {"version":1,"stores":{"":[…]}}');
  }
  for (const [name, records] of Object.entries(stores)) {
    if (name !== '' && !isSessionName(name)) throw fail(`stores.${name.slice(0, 70)}: not a session name`);
    if (!Array.isArray(records)) throw fail(`stores["${name}"]: must be a JSON array`);
    records.forEach((record, index) => {
      const position = `stores[${JSON.stringify(name)}][${index}]`;
      if (primary) read.add(name, primary, record, position, renderRecord(record));
      else read.reject(name, position, 'the contract has no stateful resource here', renderRecord(record));
    });
  }
}

function isSessionName(name: string): boolean {
  try {
    return readSession(name) === name;
  } catch {
    return false;
  }
}

function parseLine(line: string): unknown {
  try {
    return parseJson(line);
  } catch {
    return undefined;
  }
}

async function firstBytes(file: string, fail: (what: string) => AppError): Promise<string> {
  try {
    const handle = await open(file, 'r');
    try {
      const { buffer, bytesRead } = await handle.read(Buffer.alloc(64), 0, 64, 0);
      return buffer.subarray(0, bytesRead).toString('utf8');
    } finally {
      await handle.close();
    }
  } catch (error) {
    throw fail((error as NodeJS.ErrnoException).code ?? String(error));
  }
}
