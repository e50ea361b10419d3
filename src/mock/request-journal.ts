import type { IncomingHttpHeaders } from 'node:http';
import { createRedactor } from '../shared/create-redactor.js';
import { maskAuthorization } from '../shared/mask-credentials.js';

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
}

export interface JournalFilter {
  readonly operationId?: string;
  readonly session?: string;
  readonly limit?: number;
}

/** What of a body the journal keeps: enough to see what an app sent, never a megabyte per entry. */
export const JOURNAL_BODY_CHARS = 4096;

/**
 * The last `size` requests, in a ring buffer: adding one is O(1) and allocates nothing but the record, and the
 * journal never holds more than `size` records of at most KEPT_BODY_CHARS of body each.
 */
export class RequestJournal {
  readonly size: number;
  #records: (JournalRecord | undefined)[];
  #next = 0;

  constructor(size: number) {
    this.size = size;
    this.#records = new Array(size);
  }

  add(record: JournalRecord): void {
    if (this.size === 0) return;
    this.#records[this.#next] = record;
    this.#next = (this.#next + 1) % this.size;
  }

  clear(): void {
    this.#records = new Array(this.size);
    this.#next = 0;
  }

  /** Newest first, filtered. */
  *newest(filter: JournalFilter = {}): Generator<JournalRecord> {
    let left = filter.limit ?? this.size;
    for (let i = 1; i <= this.size && left > 0; i++) {
      const record = this.#records[(this.#next - i + this.size) % this.size];
      if (record === undefined) return;
      if (filter.operationId !== undefined && record.operationId !== filter.operationId) continue;
      if (filter.session !== undefined && record.session !== filter.session) continue;
      left--;
      yield record;
    }
  }
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
 * A record as GET /__admin/requests shows it. Authorization keeps only its scheme; the configured keys and the
 * token this request presented are replaced wherever else they stand (URL, header names and values, body, the
 * session and what Prefer asked), in any encoding.
 */
export function renderJournalRecord(record: JournalRecord, redactKeys: (text: string) => string): Record<string, unknown> {
  const redact = requestRedactor(record.headers.authorization, redactKeys);
  const q = record.url.indexOf('?');
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(record.headers)) {
    if (value === undefined) continue;
    const text = Array.isArray(value) ? value.join(', ') : value;
    headers[redact(name)] = name === 'authorization' ? maskAuthorization(text) : redact(text);
  }
  return {
    time: new Date(record.at).toISOString(),
    method: record.method,
    path: redact(q === -1 ? record.url : record.url.slice(0, q)),
    query: q === -1 ? '' : redact(record.url.slice(q + 1)),
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
 * The configured keys' redactor, plus the token this request presented when it is not one of them: a mistyped
 * key (the staging one) is a secret too, in the journal and in the log line.
 */
export function requestRedactor(authorization: string | string[] | undefined, redactKeys: (text: string) => string) {
  const token = bearerToken(Array.isArray(authorization) ? authorization[0] : authorization);
  if (token === undefined || redactKeys(token) !== token) return redactKeys;
  const redactToken = createRedactor(token);
  return (text: string) => redactToken(redactKeys(text));
}

function bearerToken(authorization: string | undefined): string | undefined {
  const text = authorization?.trim() ?? '';
  const space = text.search(/\s/);
  const token = space === -1 ? text : text.slice(space).trim();
  return token.length >= 4 ? token : undefined;
}

