import { join } from 'node:path';
import { getHeapStatistics } from 'node:v8';
import { AppError } from '../contract/app-error.js';
import { packageRoot } from '../contract/package-root.js';
import { type AllowedHosts, isAllowedHostEntry } from './boundary/allowed-hosts.js';
import type { CorsOrigins } from './boundary/cors.js';
import { MAX_DELAY_MS } from './prefer/read-preferences.js';

/** The key the mock accepts when none is configured; printed at start-up and in the docs. */
export const DEV_API_KEY = 'petstore-dev-key';

export interface MockOptions {
  /** 0 picks a free port. Default 4010. */
  readonly port?: number;
  /** Default 127.0.0.1: the mock is for this machine unless told otherwise. */
  readonly host?: string;
  /** Accepted keys, where each operation's security scheme puts them (src/contract/key-placement.ts). Default: [DEV_API_KEY]. */
  readonly apiKeys?: readonly string[];
  /**
   * Browser origins allowed besides loopback pages (http(s)://localhost, *.localhost, 127.0.0.1, [::1], any port,
   * always allowed); '*' lets any other page read answers too, without credentials. Default: loopback pages only.
   */
  readonly corsOrigins?: CorsOrigins;
  /** Host names answered besides loopback names and `host`; '.name' takes its subdomains too; 'all' any Host. */
  readonly allowedHosts?: AllowedHosts;
  /** Let clients on other machines call the admin endpoints (default: loopback clients only). */
  readonly adminFromNetwork?: boolean;
  /** Show cookies and credential-named headers and query parameters in the journal and the log (default: masked). */
  readonly journalSecrets?: boolean;
  /** A JSON array of Pet loaded at start and restored on reset; false for an empty store. Default fixtures/pets.json. */
  readonly fixtures?: string | false;
  /** Default 1,000,000. */
  readonly maxPets?: number;
  /** The bytes the stores may hold together; past it a create is 409 store_full. Default: half the heap limit. */
  readonly maxStoreBytes?: number;
  /** Default 1 MiB. */
  readonly maxBodyBytes?: number;
  /** A client must send its headers within this many ms (default 10 s), its whole request within requestTimeoutMs (30 s). */
  readonly headersTimeoutMs?: number;
  readonly requestTimeoutMs?: number;
  /**
   * A connection on which nothing is read or written for this many ms is closed (default 2 min, past the longest
   * delay): a client that never reads its answer, or a fault=hang, cannot hold one for ever.
   */
  readonly idleTimeoutMs?: number;
  /**
   * Connections one client address may hold open at once; more are closed as they arrive (default 512): a machine
   * on the network cannot take every file descriptor.
   */
  readonly maxConnectionsPerClient?: number;
  /** Default openapi.yaml at the project root. */
  readonly contract?: string;
  /** Where the contract's paths are served. Default /v1, as in both deployments' base addresses. */
  readonly basePath?: string;
  /** Every answer to the contract's operations waits this long, chosen anew between min and max for each. */
  readonly delay?: { readonly minMs: number; readonly maxMs: number };
  /**
   * Where the stores (sessions included) are kept across restarts: loaded at start in place of the fixtures,
   * written atomically after changes (at most twice a second) and at close.
   */
  readonly stateFile?: string;
  /** Reload the contract (and the fixtures file) when it changes, keeping the store. */
  readonly watch?: boolean;
  /** How many X-Mock-Session stores may exist at once (default 100). */
  readonly maxSessions?: number;
  /**
   * The state file's cap in bytes (default 256 MiB, well under the 512 MiB V8 can hold as one string): past it a
   * create is 409 store_full, so the file never grows past what a start can read back.
   */
  readonly maxStateBytes?: number;
  /** How many requests GET /__admin/requests keeps (default 1000; 0 keeps none), within journalBytes. */
  readonly journalSize?: number;
  /** The bytes the journal may hold in memory; the oldest requests go first past it. Default: see defaultJournalBytes. */
  readonly journalBytes?: number;
  /** 'text' (default): `POST /v1/pets 400 validation_failed 0.4ms`; 'json': one JSON object a line, for log shippers. */
  readonly logFormat?: 'text' | 'json';
  /** One line per request; none when absent. */
  readonly log?: (line: string) => void;
  /**
   * What the mock has to say outside a request (a reload under --watch, a state file it cannot write), one line
   * each. Default: the log, or a process warning when there is none.
   */
  readonly notice?: (line: string) => void;
  /** Sees every answer the mock sends (the test suite validates them all against the contract). */
  readonly onExchange?: (exchange: AnsweredExchange) => void;
}

export interface AnsweredExchange {
  readonly method: string;
  readonly url: string;
  readonly operationId: string | undefined;
  readonly status: number;
  readonly headers: Readonly<Record<string, string | number | readonly string[] | undefined>>;
  /** For HEAD, the body the GET would have carried (none is sent), so the answer is checked like the GET's. */
  readonly body: string;
  /** The request body as received, when the operation reads one. */
  readonly requestBody?: string;
}

/**
 * Half the heap Node was given (--max-old-space-size), so that the pets can never take the process down: the
 * other half is for requests in flight, the journal and Node itself.
 */
export function defaultMaxStoreBytes(): number {
  return Math.floor(getHeapStatistics().heap_size_limit / 2);
}

/**
 * The journal's share of the heap: a sixteenth, at most 64 MiB (a thousand requests of 16 KiB headers and a 4 KiB
 * body take about 45 MB). With the store's half, requests in flight and Node keep the rest.
 */
export function defaultJournalBytes(): number {
  return Math.min(64 * 1024 * 1024, Math.floor(getHeapStatistics().heap_size_limit / 16));
}

/** The most the journal may be given: a quarter of the heap, so that it and the store's half leave room for Node. */
function maxJournalBytes(): number {
  return Math.floor(getHeapStatistics().heap_size_limit / 4);
}

/** What the journal is charged at least for a request (see RequestJournal): the ceiling of journalSize follows. */
export const JOURNAL_RECORD_MIN_BYTES = 256;

/** The most requests a journal of `bytes` can keep, each charged at least JOURNAL_RECORD_MIN_BYTES. */
export function maxJournalSize(bytes: number): number {
  return Math.floor(bytes / JOURNAL_RECORD_MIN_BYTES);
}

/** The requests the journal keeps: as asked, else the default, or fewer when a small journalBytes holds fewer. */
export function journalSizeOf(options: MockOptions): number {
  return options.journalSize ?? Math.min(DEFAULTS.journalSize, maxJournalSize(options.journalBytes ?? defaultJournalBytes()));
}

/**
 * The bytes a state file's records may take: its cap less its other lines, the version line and one
 * `["store", name, resource]` line per store and resource (a session name is at most 64 characters, escaped at
 * most 6 bytes each; the resource's key as JSON escapes it).
 */
export function stateFileRecordBytes(options: MockOptions, resourceKeys: readonly string[]): number {
  const stores = (options.maxSessions ?? DEFAULTS.maxSessions) + 1;
  const section = resourceKeys.reduce((sum, key) => sum + 6 * 64 + 32 + Buffer.byteLength(JSON.stringify(key)), 0);
  return Math.max(0, (options.maxStateBytes ?? DEFAULTS.maxStateBytes) - 64 - Math.max(256, section) * stores);
}

export function defaultFixturesPath(): string {
  return join(packageRoot(), 'fixtures', 'pets.json');
}

/** A path that starts with '/' and does not end with one: where the mock serves the contract's paths. */
export function isBasePath(path: string): boolean {
  return /^(?:\/[^/?#\s]+)+$/.test(path);
}

export const DEFAULTS = {
  port: 4010,
  host: '127.0.0.1',
  maxPets: 1_000_000,
  maxBodyBytes: 1024 * 1024,
  basePath: '/v1',
  headersTimeoutMs: 10_000,
  requestTimeoutMs: 30_000,
  idleTimeoutMs: 120_000,
  maxConnectionsPerClient: 512,
  journalSize: 1000,
  maxSessions: 100,
  maxStateBytes: 256 * 1024 * 1024,
} as const;

// One row per option a caller can get wrong: the rule it must meet, in words for the message. Keys are never
// echoed in a message.
const RULES: readonly { name: keyof MockOptions; valid: (value: unknown) => boolean; rule: string; secret?: true }[] = [
  { name: 'port', valid: (v) => isWhole(v, 0) && (v as number) <= 65535, rule: 'a whole number from 0 to 65535' },
  { name: 'maxPets', valid: (v) => isWhole(v, 1), rule: 'a whole number of at least 1' },
  { name: 'maxStoreBytes', valid: (v) => isWhole(v, 1), rule: 'a whole number of at least 1' },
  { name: 'maxBodyBytes', valid: (v) => isWhole(v, 1), rule: 'a whole number of at least 1' },
  { name: 'headersTimeoutMs', valid: (v) => isWhole(v, 1), rule: 'a whole number of at least 1' },
  { name: 'requestTimeoutMs', valid: (v) => isWhole(v, 1), rule: 'a whole number of at least 1' },
  { name: 'idleTimeoutMs', valid: (v) => isWhole(v, 1), rule: 'a whole number of at least 1' },
  { name: 'maxConnectionsPerClient', valid: (v) => isWhole(v, 1), rule: 'a whole number of at least 1' },
  { name: 'journalSize', valid: (v) => isWhole(v, 0), rule: 'a whole number of at least 0' },
  {
    name: 'journalBytes',
    valid: (v) => isWhole(v, 0) && (v as number) <= maxJournalBytes(),
    rule: 'a whole number from 0 to a quarter of the heap',
  },
  { name: 'maxStateBytes', valid: (v) => isWhole(v, 1024), rule: 'a whole number of at least 1024' },
  { name: 'maxSessions', valid: (v) => isWhole(v, 0), rule: 'a whole number of at least 0' },
  { name: 'logFormat', valid: (v) => v === 'text' || v === 'json', rule: "'text' or 'json'" },
  {
    name: 'delay',
    valid: (v) => {
      const { minMs, maxMs } = v as { minMs: unknown; maxMs: unknown };
      return (
        isWhole(minMs, 0) && isWhole(maxMs, 0) && (minMs as number) <= (maxMs as number) && (maxMs as number) <= MAX_DELAY_MS
      );
    },
    rule: `{ minMs, maxMs }: whole numbers, 0 <= minMs <= maxMs <= ${MAX_DELAY_MS}`,
  },
  {
    name: 'basePath',
    valid: (v) => typeof v === 'string' && isBasePath(v),
    rule: "a path that starts with '/' and does not end with one, e.g. '/v1'",
  },
  {
    name: 'apiKeys',
    // A header value is bytes: a key with a character outside visible ASCII (é, a space) could never be sent as
    // the mock compares it, and no request would ever be let in.
    valid: (v) => Array.isArray(v) && v.every((key) => typeof key === 'string' && /^[\x21-\x7e]+$/.test(key)),
    rule: 'a list of keys, none of them empty, each of visible ASCII characters (no spaces, no accents)',
    secret: true,
  },
  {
    name: 'corsOrigins',
    // A browser sends an Origin as scheme://host[:port], nothing after: http://localhost:3000/ (a slash too many)
    // would match no request, and every page would fail CORS with nothing to say why.
    valid: (v) => v === '*' || (Array.isArray(v) && v.every((origin) => origin === '*' || isCorsOrigin(origin))),
    rule: "'*' or origins as a browser sends them, scheme://host[:port] with no path or trailing slash (http://localhost:3000)",
  },
  {
    name: 'allowedHosts',
    valid: (v) => v === 'all' || (Array.isArray(v) && v.every(isAllowedHostEntry)),
    rule: "'all' or host names without a port (example.test, .example.test for it and its subdomains, 192.168.1.5)",
  },
];

/** Throws AppError('invalid_option') for the first option outside its rule: createMockServer checks before it starts. */
export function checkMockOptions(options: MockOptions): void {
  for (const { name, valid, rule, secret } of RULES) {
    const value = options[name];
    if (value === undefined || valid(value)) continue;
    throw new AppError('invalid_option', `${name} must be ${rule}${secret ? '' : ` (got ${JSON.stringify(value)})`}`);
  }
  // A count the byte budget could never hold is a mistake to say, not to find out as a heap OOM (exit 134).
  const journalBytes = options.journalBytes ?? defaultJournalBytes();
  const size = options.journalSize;
  if (size !== undefined && size > maxJournalSize(journalBytes)) {
    throw new AppError(
      'invalid_option',
      `journalSize must be at most ${maxJournalSize(journalBytes)} (got ${size}): the journal's budget of ${journalBytes} bytes (journalBytes) holds no more requests of at least ${JOURNAL_RECORD_MIN_BYTES} bytes each`,
    );
  }
}

/** An Origin a browser may send: scheme://host[:port] and nothing more, or `null` (a file:// page, a sandbox). */
export function isCorsOrigin(value: unknown): boolean {
  return value === 'null' || isOrigin(value);
}

function isOrigin(value: unknown): boolean {
  if (typeof value !== 'string') return false;
  try {
    return new URL(value).origin === value;
  } catch {
    return false;
  }
}

function isWhole(value: unknown, min: number): boolean {
  return Number.isInteger(value) && (value as number) >= min;
}
