import type { IncomingHttpHeaders } from 'node:http';
import type { KeyPlacement } from '../../contract/key-placement.js';
import { createRedactor, SHORTEST_REDACTED_SECRET } from '../../shared/create-redactor.js';
import { maskJournalHeader, maskTarget, placedKeyValues, requestSecrets } from './mask-credentials.js';
import { JOURNAL_RECORD_MIN_BYTES } from '../mock-options.js';

/** One request as the mock saw it, kept raw and redacted only when shown (recording stays cheap). */
export interface JournalRecord {
  readonly at: number;
  readonly method: string;
  readonly url: string;
  readonly operationId: string | undefined;
  readonly session: string | undefined;
  /** undefined for a fault that sent no answer (reset, empty, hang). */
  readonly status: number | undefined;
  readonly durationMs: number;
  readonly headers: IncomingHttpHeaders;
  readonly body: string | undefined;
  readonly bodyLength: number;
  readonly errorCode: string | undefined;
  /** The id of the admin rule that applied. */
  readonly rule: number | undefined;
  readonly applied: readonly string[] | undefined;
  readonly notApplied: readonly string[] | undefined;
  /** Where the operation's security scheme puts the key: masked there whatever its name (mask-credentials.ts). */
  readonly key?: KeyPlacement | undefined;
}

export interface JournalFilter {
  readonly operationId?: string;
  readonly session?: string;
  readonly limit?: number;
}

/** What of a body the journal keeps: enough to see what an app sent, never a megabyte per entry. */
export const JOURNAL_BODY_CHARS = 4096;

/**
 * The last requests, at most `size` of them and at most `maxBytes` in memory together (each charged what its
 * strings take, see journalCost): the oldest go first. A ring buffer: adding one is O(1) amortised and allocates
 * nothing but the record.
 */
export class RequestJournal {
  readonly size: number;
  readonly maxBytes: number;
  #records: (JournalRecord | undefined)[];
  readonly #costs: Float64Array;
  #oldest = 0;
  #count = 0;
  #bytes = 0;

  constructor(size: number, maxBytes: number = Number.POSITIVE_INFINITY) {
    this.size = size;
    this.maxBytes = maxBytes;
    this.#records = new Array(size);
    this.#costs = new Float64Array(size);
  }

  /** The bytes the kept requests are estimated to take. */
  get bytes(): number {
    return this.#bytes;
  }

  get count(): number {
    return this.#count;
  }

  add(record: JournalRecord): void {
    const cost = journalCost(record);
    if (this.size === 0 || cost > this.maxBytes) return;
    while (this.#count === this.size || this.#bytes + cost > this.maxBytes) this.#dropOldest();
    const slot = (this.#oldest + this.#count) % this.size;
    this.#records[slot] = record;
    this.#costs[slot] = cost;
    this.#count++;
    this.#bytes += cost;
  }

  clear(): void {
    this.#records = new Array(this.size);
    this.#oldest = 0;
    this.#count = 0;
    this.#bytes = 0;
  }

  /** Newest first, filtered. */
  *newest(filter: JournalFilter = {}): Generator<JournalRecord> {
    let left = filter.limit ?? this.size;
    for (let i = this.#count - 1; i >= 0 && left > 0; i--) {
      const record = this.#records[(this.#oldest + i) % this.size] as JournalRecord;
      if (filter.operationId !== undefined && record.operationId !== filter.operationId) continue;
      if (filter.session !== undefined && record.session !== filter.session) continue;
      left--;
      yield record;
    }
  }

  #dropOldest(): void {
    this.#bytes -= this.#costs[this.#oldest] as number;
    this.#records[this.#oldest] = undefined;
    this.#oldest = (this.#oldest + 1) % this.size;
    this.#count--;
  }
}

// What a record costs beyond its strings: the object, its arrays and slots, with room to spare. Strings count two
// bytes a character (V8 keeps non-Latin-1 text in UTF-16).
const RECORD_OVERHEAD_BYTES = JOURNAL_RECORD_MIN_BYTES;

/** A record's estimated size in memory, on the safe side (see RequestJournal). */
export function journalCost(record: JournalRecord): number {
  let chars = record.url.length + record.method.length + (record.body?.length ?? 0) + (record.session?.length ?? 0);
  const { headers } = record;
  for (const name in headers) {
    const value = headers[name];
    chars += name.length + 32;
    if (Array.isArray(value)) for (const item of value) chars += item.length + 16;
    else chars += value?.length ?? 0;
  }
  for (const note of record.applied ?? []) chars += note.length + 16;
  for (const note of record.notApplied ?? []) chars += note.length + 16;
  return RECORD_OVERHEAD_BYTES + 2 * chars;
}

/** What of a header value the journal shows: enough to tell what an app sent, never 15 KB of one header. */
export const JOURNAL_HEADER_CHARS = 1024;
// As for bodies, more is kept than shown, so a key that starts before the cut is whole for redaction.
const KEPT_HEADER_CHARS = JOURNAL_HEADER_CHARS + 1024;

/**
 * The headers as the journal keeps them: each value cut to KEPT_HEADER_CHARS, copied out so the cut piece does not
 * keep the whole value alive. None at all for a refused request (see recordExchange).
 */
export function journalHeaders(headers: IncomingHttpHeaders): IncomingHttpHeaders {
  // Nearly every request has no header to cut: its own headers object is kept as it is, not copied, since the
  // journal holds each request until a thousand more have come.
  if (!hasLongHeader(headers)) return headers;
  const kept: IncomingHttpHeaders = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value === undefined) continue;
    (kept as Record<string, string | string[]>)[name] = Array.isArray(value) ? value.map(cutHeader) : cutHeader(value);
  }
  return kept;
}

function hasLongHeader(headers: IncomingHttpHeaders): boolean {
  for (const name in headers) {
    const value = headers[name];
    if (typeof value === 'string' ? value.length > KEPT_HEADER_CHARS : value?.some((item) => item.length > KEPT_HEADER_CHARS))
      return true;
  }
  return false;
}

function cutHeader(value: string): string {
  return value.length <= KEPT_HEADER_CHARS ? value : Buffer.from(value.slice(0, KEPT_HEADER_CHARS)).toString();
}

/**
 * A body as the journal keeps it. A slice of a large string keeps the whole string alive in V8, so a long body is
 * copied out through a Buffer.
 */
export function journalBody(text: string | undefined): string | undefined {
  if (text === undefined || text.length <= KEPT_BODY_CHARS) return text;
  return Buffer.from(text.slice(0, KEPT_BODY_CHARS)).toString();
}

// More than is shown is kept, and the shown part is cut after redaction: a key that starts before the cut is
// whole in what is kept, so it is replaced, never shown cut to a piece below what redaction recognises.
const KEPT_BODY_CHARS = JOURNAL_BODY_CHARS + 1024;

/**
 * A record as GET /__admin/requests shows it. Authorization keeps only its scheme; cookies, other credentials
 * (mask-credentials.ts) are masked unless `keepSecrets`; the configured keys and the token this request presented
 * are replaced wherever else they stand (URL, header names and values, body, the session and what Prefer asked),
 * in any encoding.
 */
export function renderJournalRecord(
  record: JournalRecord,
  redactKeys: (text: string) => string,
  keepSecrets: boolean,
): Record<string, unknown> {
  const redact = requestRedactor(
    record.headers,
    redactKeys,
    keepSecrets,
    placedKeyValues(record.key, record.headers, record.url),
  );
  const url = maskTarget(record.url, record.key, keepSecrets);
  const q = url.indexOf('?');
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(record.headers)) {
    if (value === undefined) continue;
    const text = Array.isArray(value) ? value.join(', ') : value;
    headers[redact(name)] = (maskJournalHeader(name, text, keepSecrets, record.key) ?? redact(text)).slice(
      0,
      JOURNAL_HEADER_CHARS,
    );
  }
  return {
    time: new Date(record.at).toISOString(),
    method: record.method,
    path: redact(q === -1 ? url : url.slice(0, q)),
    query: q === -1 ? '' : redact(url.slice(q + 1)),
    operationId: record.operationId ?? null,
    session: record.session === undefined ? null : redact(record.session),
    status: record.status ?? null,
    durationMs: Math.round(record.durationMs * 10) / 10,
    errorCode: record.errorCode ?? null,
    rule: record.rule ?? null,
    applied: (record.applied ?? []).map(redact),
    notApplied: (record.notApplied ?? []).map(redact),
    headers,
    body: record.body === undefined ? null : redact(record.body).slice(0, JOURNAL_BODY_CHARS),
    bodyLength: record.bodyLength,
    bodyTruncated: record.bodyLength > JOURNAL_BODY_CHARS,
  };
}

/**
 * The configured keys' redactor, plus the credentials this request carried that are not among them (a mistyped
 * key, a Basic password, a cookie's value: see requestSecrets), wherever else the request repeats them, in the
 * journal and in the log line.
 */
export function requestRedactor(
  headers: IncomingHttpHeaders,
  redactKeys: (text: string) => string,
  keepSecrets: boolean,
  placedKeys: readonly string[] = [],
): (text: string) => string {
  const secrets = [...requestSecrets(headers, keepSecrets), ...placedKeys].filter(
    (secret) => secret.length >= SHORTEST_REDACTED_SECRET && redactKeys(secret) === secret,
  );
  if (secrets.length === 0) return redactKeys;
  const id = secrets.join('\n');
  let redactSecrets = REQUEST_REDACTORS.get(id);
  if (redactSecrets === undefined) {
    redactSecrets = createRedactor(secrets);
    // An app sends the same cookies with every request: the journal shows a thousand of them at once.
    if (REQUEST_REDACTORS.size >= MAX_REQUEST_REDACTORS) REQUEST_REDACTORS.clear();
    REQUEST_REDACTORS.set(id, redactSecrets);
  }
  const redact = redactSecrets;
  return (text: string) => redact(redactKeys(text));
}

const REQUEST_REDACTORS = new Map<string, (text: string) => string>();
const MAX_REQUEST_REDACTORS = 64;
