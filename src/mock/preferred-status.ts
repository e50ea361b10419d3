import { findResponse } from '../contract/find-response.js';
import type { Operation } from '../contract/operation.js';
import { mockError } from './error-codes.js';

const CODE = /(?:^|[\s,;])code=(\d{3})(?:$|[\s,;])/;

/**
 * The status a client asks for with `Prefer: code=404`, as Prism reads that header: a frontend can see every
 * documented answer of an operation (its contract example) without arranging the state that causes it.
 * A status the operation does not document is a 400 that lists the documented ones.
 */
export function preferredStatus(prefer: string | string[] | undefined, operation: Operation): number | undefined {
  const match = prefer === undefined ? null : CODE.exec(String(prefer));
  if (!match) return undefined;
  const status = Number(match[1]);
  if (findResponse(operation, status)) return status;
  const documented = operation.responses.map((r) => r.code).join(', ');
  throw mockError(
    'invalid_parameter',
    `header.prefer: code=${status} is not a documented status of ${operation.operationId} (documented: ${documented})`,
  );
}
