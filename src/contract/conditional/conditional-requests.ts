import type { Operation } from '../operation.js';

/**
 * What an operation's contract promises about conditional requests (RFC 9110 §13), read the same by the mock, which
 * keeps the promises, and the runner, which checks them. A promise is only ever read from what the contract
 * documents: a server is never held to a precondition its contract does not name.
 */

/** The success of a read documents an `ETag` header: the record has an entity tag to compare (RFC 9110 §8.8.3). */
export function documentsEntityTag(operation: Operation): boolean {
  return operation.responses.some((r) => r.code.startsWith('2') && r.headers.some((h) => h.name === 'etag'));
}

/**
 * A read that promises 304 Not Modified for an `If-None-Match` naming its current tag (RFC 9110 §13.1.2,
 * §15.4.5): it documents an ETag and either the 304 itself or an If-None-Match parameter. `documented` is true only
 * where the 304 is documented: with the parameter alone, HTTP lets the server answer 200 instead.
 */
export function notModifiedPromise(operation: Operation): { readonly documented: boolean } | undefined {
  if (operation.method !== 'GET' || !documentsEntityTag(operation)) return undefined;
  const documented = documentsStatus(operation, 304);
  return documented || hasHeaderParameter(operation, 'if-none-match') ? { documented } : undefined;
}

/**
 * A write that promises 412 Precondition Failed for an `If-Match` naming no current tag (RFC 9110 §13.1.1,
 * §15.5.13): it documents the 412 or an If-Match parameter.
 */
export function enforcesIfMatch(operation: Operation): boolean {
  if (!WRITES.has(operation.method)) return false;
  return documentsStatus(operation, 412) || hasHeaderParameter(operation, 'if-match');
}

/**
 * A write to a record that promises 412 where If-None-Match names the record's current tag or is `*` (RFC 9110
 * §13.1.2: a PUT with `If-None-Match: *` makes a record only where none is): it documents the 412.
 */
export function enforcesIfNoneMatch(operation: Operation): boolean {
  return operation.method !== 'POST' && WRITES.has(operation.method) && documentsStatus(operation, 412);
}

const WRITES = new Set(['PUT', 'PATCH', 'DELETE', 'POST']);

export function documentsStatus(operation: Operation, status: number): boolean {
  return operation.responses.some((r) => r.code === String(status));
}

function hasHeaderParameter(operation: Operation, name: string): boolean {
  return operation.parameters.some((p) => p.in === 'header' && p.name.toLowerCase() === name);
}
