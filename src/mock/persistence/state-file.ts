import { once } from 'node:events';
import { createReadStream, createWriteStream, existsSync } from 'node:fs';
import { open, rename, rm, stat } from 'node:fs/promises';
import { createInterface } from 'node:readline';
import { AppError } from '../../contract/app-error.js';
import type { Validator } from '../../contract/compile-schema.js';
import { parseJson } from '../../contract/lossless-json.js';
import { petChecker, readJsonFile } from '../load-fixtures.js';
import type { Pet } from '../pet-store.js';
import { readSession } from '../session-stores.js';
import { temporaryName } from './temporary-files.js';
import { type RejectedRecord, renderRecord } from './write-rejected.js';

/** The stores a state file holds: the default store under "", each session under its name. */
export type SavedStores = ReadonlyMap<string, readonly Pet[]>;

export interface SavedState {
  readonly stores: SavedStores;
  /** Records of the other resources (`others`), by store name then resource key, as read: checked by the caller. */
  readonly resources: ReadonlyMap<string, ReadonlyMap<string, unknown[]>>;
  /** Records the contract no longer accepts, for a side file (see writeRejected). */
  readonly rejected: readonly RejectedRecord[];
}

/**
 * Version 2 is JSON Lines: `{"version":2}`, then for each store a line `["store", name, resource]` followed by its
 * records, one a line. Read a line at a time, so a file the mock wrote can always be read back: no string holds
 * more than one record (V8 caps a string at about 512 MiB; version 1 was one string and bricked past it).
 */
const VERSION = 2;
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
  resource: string,
  validate: Validator,
  maxRecords: number,
  others: ReadonlySet<string> = new Set(),
): Promise<SavedState | undefined> {
  const fail = (what: string) => new AppError('state_invalid', `Failed to load state file ${file}: ${what}`);
  if (!existsSync(file)) return undefined;
  const read = new StoresRead(validate, maxRecords);
  if (LEGACY.test(await firstBytes(file, fail))) {
    if ((await stat(file)).size > LEGACY_MAX_BYTES) {
      throw fail(
        `a version 1 state file larger than ${LEGACY_MAX_BYTES} bytes cannot be read: start an older petstore-mock on it and reset it, or remove it`,
      );
    }
    readLegacy(await readJsonFile(file, fail), read, fail);
    return read.result();
  }
  const lines = createInterface({ input: createReadStream(file, 'utf8'), crlfDelay: Number.POSITIVE_INFINITY });
  let number = 0;
  let store: { name: string; foreign: boolean; other: unknown[] | undefined } | undefined;
  for await (const line of lines) {
    number++;
    if (line.trim() === '') continue;
    if (number === 1) {
      const header = parseLine(line);
      if (typeof header !== 'object' || header === null || (header as { version?: unknown }).version !== VERSION) {
        throw fail(`not a petstore-mock state file: its first line must be {"version":${VERSION}}`);
      }
      continue;
    }
    if (line.startsWith('[')) {
      const section = parseLine(line);
      if (!Array.isArray(section) || section[0] !== 'store' || typeof section[1] !== 'string' || typeof section[2] !== 'string') {
        throw fail(`line ${number}: expected ["store", name, resource]`);
      }
      const name = section[1];
      if (name !== '' && !isSessionName(name))
        throw fail(`line ${number}: ${JSON.stringify(name.slice(0, 70))} is not a session name`);
      const other = others.has(section[2]) ? read.other(name, section[2]) : undefined;
      store = { name, foreign: section[2] !== resource && other === undefined, other };
      if (other === undefined) read.open(name);
      continue;
    }
    if (store === undefined) throw fail(`line ${number}: a record before any ["store", name, resource] line`);
    const position = `line ${number}`;
    const record = parseLine(line);
    if (record === undefined) read.reject(store.name, position, 'not valid JSON', JSON.stringify(line.slice(0, 1024)));
    else if (store.other) store.other.push(record);
    else if (store.foreign) read.reject(store.name, position, `the contract has no resource ${resource} here`, line);
    else read.add(store.name, record, position, line);
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
  resource: string,
  stores: Iterable<readonly [string, Iterable<string>, string?]>,
): Promise<number> {
  const temporary = temporaryName(file);
  const out = createWriteStream(temporary);
  try {
    let chunk = `{"version":${VERSION}}\n`;
    const flush = async () => {
      if (!out.write(chunk)) await once(out, 'drain');
      chunk = '';
    };
    // A third element names another resource's records (its key); without one they are `resource`'s.
    for (const [name, records, other] of stores) {
      chunk += `${JSON.stringify(['store', name, other ?? resource])}\n`;
      for (const record of records) {
        chunk += `${record}\n`;
        if (chunk.length >= CHUNK_CHARS) await flush();
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

/** Records read so far, store by store, checked as they come. */
class StoresRead {
  readonly #stores = new Map<string, { records: Pet[]; check: (entry: unknown, path: string) => string | undefined }>();
  readonly #rejected: RejectedRecord[] = [];
  readonly #others = new Map<string, Map<string, unknown[]>>();
  readonly #validate: Validator;
  readonly #maxRecords: number;

  constructor(validate: Validator, maxRecords: number) {
    this.#validate = validate;
    this.#maxRecords = maxRecords;
  }

  open(name: string) {
    if (!this.#stores.has(name)) this.#stores.set(name, { records: [], check: petChecker(this.#validate) });
    return this.#stores.get(name) as { records: Pet[]; check: (entry: unknown, path: string) => string | undefined };
  }

  other(name: string, key: string): unknown[] {
    const stores = this.#others.get(name) ?? new Map<string, unknown[]>();
    this.#others.set(name, stores);
    const records = stores.get(key) ?? [];
    stores.set(key, records);
    return records;
  }

  add(name: string, record: unknown, position: string, text: string) {
    const store = this.open(name);
    const reason =
      store.records.length >= this.#maxRecords ? `more records than --max-pets ${this.#maxRecords}` : store.check(record, '');
    if (reason === undefined) store.records.push(record as Pet);
    else this.reject(name, position, reason.replace(/^\./, ''), text);
  }

  reject(store: string, position: string, reason: string, record: string) {
    this.#rejected.push({ store, position, reason, record });
  }

  result(): SavedState {
    return {
      stores: new Map([...this.#stores].map(([name, { records }]) => [name, records])),
      resources: this.#others,
      rejected: this.#rejected,
    };
  }
}

function readLegacy(value: unknown, read: StoresRead, fail: (what: string) => AppError) {
  const { stores } = (typeof value === 'object' && value !== null ? value : {}) as Record<string, unknown>;
  if (typeof stores !== 'object' || stores === null || Array.isArray(stores)) {
    throw fail('not a petstore-mock state file: expected {"version":1,"stores":{"":[…]}}');
  }
  for (const [name, records] of Object.entries(stores)) {
    if (name !== '' && !isSessionName(name)) throw fail(`stores.${name.slice(0, 70)}: not a session name`);
    if (!Array.isArray(records)) throw fail(`stores["${name}"]: must be a JSON array`);
    read.open(name);
    records.forEach((record, index) => {
      const position = `stores[${JSON.stringify(name)}][${index}]`;
      read.add(name, record, position, renderRecord(record));
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
