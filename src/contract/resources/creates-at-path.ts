import type { Operation } from '../operation.js';

/**
 * docs/reference/resources.md rule 11: whether an item PUT of a resource with no create makes the record at an id
 * the client chooses (create-or-replace). RFC 9110 §9.3.4: a PUT that creates a representation answers 201, so a
 * documented 201 says so. A PUT documenting only 200 or 204 creates too when it documents no 404 and the id is not
 * readOnly: with no create it is the only way the API makes a record, nothing says an absent id is refused, and
 * the id is not the server's to set (rule 8). Otherwise it only replaces what exists.
 */
export function createsAtPath(put: Operation, idReadOnly: boolean): boolean {
  const codes = new Set(put.responses.map((response) => response.code.toUpperCase()));
  if (codes.has('201')) return true;
  const succeeds = codes.has('200') || codes.has('204') || codes.has('2XX');
  return succeeds && !codes.has('404') && !idReadOnly;
}
