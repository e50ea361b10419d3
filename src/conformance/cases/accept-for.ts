import { isJsonMedia } from '../../contract/find-response.js';
import type { Operation } from '../../contract/operation.js';

/**
 * The Accept a request to the operation goes out with: `application/json`, unless its successes are documented
 * only in other types (HAL's `application/hal+json`, JSON:API's `application/vnd.api+json`, a `text/csv`
 * download), which are then named first, `application/json` after them for the errors. A server that honours Accept strictly (RFC 9110
 * §12.5.1) owes the documented answer to it, not a 406.
 */
export function acceptFor(operation: Operation): string {
  let accept = accepts.get(operation);
  if (accept === undefined) {
    const own = [...new Set(successTypes(operation))];
    accept = own.length === 0 || own.includes(JSON_TYPE) ? JSON_TYPE : [...own, JSON_TYPE].join(', ');
    accepts.set(operation, accept);
  }
  return accept;
}

/** The JSON type a client of the operation asks for by name: `application/json` where its successes have it. */
export function primaryJsonType(operation: Operation): string {
  const own = successJsonTypes(operation);
  return own.length === 0 || own.includes(JSON_TYPE) ? JSON_TYPE : (own[0] as string);
}

const JSON_TYPE = 'application/json';
const accepts = new WeakMap<Operation, string>();

function successTypes(operation: Operation): string[] {
  return operation.responses.filter((r) => r.code.startsWith('2')).flatMap((r) => r.contents.map((c) => c.mediaType));
}

function successJsonTypes(operation: Operation): string[] {
  return successTypes(operation).filter((type) => isJsonMedia(type));
}
