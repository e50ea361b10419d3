import type { IncomingHttpHeaders } from 'node:http';
import { enforcesIfMatch, enforcesIfNoneMatch } from '../../contract/conditional/conditional-requests.js';
import type { Operation } from '../../contract/operation.js';
import { mockError } from '../error-codes.js';
import { entityTag, namesTag } from './entity-tag.js';

/**
 * RFC 6585 §3: a write whose contract requires If-Match and documents the 428 is refused with 428 without one,
 * rather than with the 400 of any other missing required header.
 */
export function requirePrecondition(operation: Operation, headers: IncomingHttpHeaders): void {
  if (headers['if-match'] === undefined && requiresIfMatch(operation)) throw mockError('precondition_required');
}

const requires = new WeakMap<Operation, boolean>();

function requiresIfMatch(operation: Operation): boolean {
  let known = requires.get(operation);
  if (known === undefined) {
    const parameter = operation.parameters.find((p) => p.in === 'header' && p.name === 'if-match');
    known = parameter?.required === true && operation.responses.some((r) => r.code === '428');
    requires.set(operation, known);
  }
  return known;
}

/**
 * A write to the record stored as `json` whose If-None-Match is `*` or names the record's tag, refused with 412
 * (RFC 9110 §13.1.2, weak comparison): the record exists, and the client asked to write only where it does not
 * (`If-None-Match: *` on a PUT that creates) or only where it changed. Where the operation documents the 412.
 */
export function ifNoneMatchCheck(operation: Operation): ((ifNoneMatch: string | undefined, json: string) => void) | undefined {
  if (!enforcesIfNoneMatch(operation)) return undefined;
  return (ifNoneMatch, json) => {
    if (ifNoneMatch !== undefined && namesTag(ifNoneMatch, entityTag(json), true))
      throw mockError(
        'precondition_failed',
        'If-None-Match is * or names the entity tag of the record, which exists: the write is made only where no such record is',
      );
  };
}

/**
 * Whether a write to the record stored as `json` is to be refused with 412 (RFC 9110 §13.1.1): the operation
 * documents the precondition (a 412 or an If-Match parameter) and If-Match names neither `*` nor the record's tag.
 * Made once an operation: a write that documents none never reads If-Match.
 */
export function ifMatchCheck(operation: Operation): ((ifMatch: string | undefined, json: string) => void) | undefined {
  if (!enforcesIfMatch(operation)) return undefined;
  return (ifMatch, json) => {
    if (ifMatch !== undefined && !namesTag(ifMatch, entityTag(json), false)) throw mockError('precondition_failed');
  };
}
