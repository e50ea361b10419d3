import { createHash } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { enforcesIfMatch, notModifiedPromise } from '../../src/contract/conditional/conditional-requests.js';
import { countHeader } from '../../src/contract/count-header.js';
import type { Operation } from '../../src/contract/operation.js';

/** One way the CRUD test server breaks a header promise of its contract (test/contracts/conditional). */
export type ConditionalBreakage =
  | 'ignores-if-none-match'
  | 'etag-cache-stale'
  | 'etag-of-id'
  | 'ignores-if-match'
  | 'total-count-unfiltered'
  | 'total-count-of-page';

type Row = Record<string, unknown>;

/**
 * The CRUD test server's conditional requests, written from RFC 9110 §13 and the contract alone, apart from the
 * mock's code: a strong ETag of the record's JSON where a success documents one, 304 for an If-None-Match naming
 * it (weak comparison, `*`) where the read promises it, 412 for an If-Match naming another (strong comparison, `*`
 * matches any record) where the write documents it, and a documented count header holding the query's total.
 */
export function crudConditional(breakage: string | undefined) {
  // 'etag-cache-stale': every tag a record's path was ever answered with still gives a 304 there.
  const issued = new Map<string, Set<string>>();
  // 'etag-of-id': a tag made from the record's id alone, the same however the record changes.
  const tagOf = (record: Row) => {
    const named = breakage === 'etag-of-id' ? String(record.id) : JSON.stringify(record);
    return `"${createHash('sha1').update(named).digest('base64url').slice(0, 16)}"`;
  };
  return {
    /** Sets the ETag on an answer whose documented response has one. */
    tag(operation: Operation, res: ServerResponse, status: number, record: Row, path: string): void {
      const response = operation.responses.find((r) => r.code === String(status));
      if (!response?.headers.some((h) => h.name === 'etag')) return;
      const tag = tagOf(record);
      res.setHeader('etag', tag);
      issued.set(path, (issued.get(path) ?? new Set()).add(tag));
    },
    /** The 304 a read answers, with its ETag, when If-None-Match names the record's tag; false to answer 200. */
    notModified(operation: Operation, req: IncomingMessage, res: ServerResponse, record: Row, path: string): boolean {
      const given = req.headers['if-none-match'];
      if (given === undefined || !notModifiedPromise(operation) || breakage === 'ignores-if-none-match') return false;
      const tag = tagOf(record);
      const tags = given.split(',').map((one) => one.trim().replace(/^W\//, ''));
      const known = breakage === 'etag-cache-stale' ? tags.some((one) => issued.get(path)?.has(one)) : false;
      if (!known && !tags.includes('*') && !tags.includes(tag)) return false;
      res.writeHead(304, { etag: tag }).end();
      return true;
    },
    /** Whether a write's If-Match names no tag of the record (RFC 9110 §13.1.1: a weak tag never matches). */
    preconditionFails(operation: Operation, req: IncomingMessage, record: Row): boolean {
      const given = req.headers['if-match'];
      if (given === undefined || !enforcesIfMatch(operation) || breakage === 'ignores-if-match') return false;
      const tags = given.split(',').map((one) => one.trim());
      return !tags.includes('*') && !tags.includes(tagOf(record));
    },
    /** The count header a list documents, holding how many records its query matches. */
    count(operation: Operation, res: ServerResponse, counts: { matched: number; all: number; page: number }): void {
      const name = countHeader(operation);
      const told =
        breakage === 'total-count-unfiltered' ? counts.all : breakage === 'total-count-of-page' ? counts.page : counts.matched;
      if (name !== undefined) res.setHeader(name, String(told));
    },
  };
}
