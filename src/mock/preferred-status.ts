import { findResponse } from '../contract/find-response.js';
import type { Operation } from '../contract/operation.js';
import { ERROR_CODES, type ErrorCode, errorBody, mockError, statusOf } from './error-codes.js';
import type { MockResponse } from './handler.js';
import { contractExample } from './prism-adapter.js';

const CODE = /(?:^|[\s,;])code=(\d{3})(?:$|[\s,;])/;

/**
 * The status a client asks for with `Prefer: code=404`, as Prism reads that header: a frontend can see every
 * documented answer of an operation without arranging the state that causes it. A status the operation does
 * not document is a 400 that lists the documented ones.
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

// For a forced status whose contract example has no code the mock also uses for it: the code of its most
// common cause.
const USUAL_CODE: Readonly<Record<number, ErrorCode>> = {
  400: 'validation_failed',
  401: 'invalid_api_key',
  404: 'not_found',
  405: 'method_not_allowed',
  406: 'not_acceptable',
  409: 'store_full',
  413: 'payload_too_large',
  500: 'internal_error',
};

/**
 * The answer to `Prefer: code=NNN` with an error status: an Error body in the code the contract's example for
 * that status uses (pet_not_found for getPet's 404), with a message that says what happened, never the
 * example's placeholder message (`no pet has id 42` for /pets/1). Nothing is looked up or changed. Undefined for a
 * status the mock has no code for: that one gets the contract's example.
 */
export function preferredError(operation: Operation, status: number): MockResponse | undefined {
  const example = contractExample(operation, status) as { code?: unknown } | undefined;
  const exampleCode = typeof example?.code === 'string' && example.code in ERROR_CODES ? example.code : undefined;
  const code = exampleCode !== undefined && statusOf(exampleCode) === status ? exampleCode : USUAL_CODE[status];
  if (code === undefined) return undefined;
  return {
    status,
    body: errorBody(code, `Prefer: code=${status} asked for this answer; nothing was looked up or changed`),
    headers: { 'Preference-Applied': `code=${status}` },
  };
}
