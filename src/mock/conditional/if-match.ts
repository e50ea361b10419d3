import type { IncomingHttpHeaders } from 'node:http';
import { enforcesIfMatch } from '../../contract/conditional/conditional-requests.js';
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
