import { findResponse } from '../../contract/find-response.js';
import type { Operation } from '../../contract/operation.js';
import type { ErrorBodyShape } from '../../contract/error-body/shape-error-body.js';
import { ERROR_CODES, type ErrorCode, mockError, statusOf } from '../error-codes.js';
import { errorAnswer } from '../error-response.js';
import type { MockResponse } from '../handler.js';
import { contractExample } from '../prism-adapter.js';

/**
 * `Prefer: code=NNN`, as Prism reads that header: a frontend can see every answer of an operation without
 * arranging the state that causes it. Any 4xx or 5xx is an error answer (a 503 or a 429 need not be documented to
 * be worth testing); a success or redirect the operation does not document is a 400 that lists the documented
 * statuses, since the mock could not say what its body would be.
 */
export function checkPreferredStatus(status: number, operation: Operation): void {
  if (isError(status) || findResponse(operation, status)) return;
  const documented = operation.responses.map((r) => r.code).join(', ');
  throw mockError(
    'invalid_parameter',
    `header.prefer: code=${status} is not a documented status of ${operation.operationId} (documented: ${documented}); any 4xx or 5xx may be asked for`,
  );
}

export function isError(status: number): boolean {
  return status >= 400 && status <= 599;
}

// For a forced status whose contract example has no code the mock also uses for it: the code of its most
// common cause; any other status gets prefer_code.
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

const EXAMPLE_CODE = /^[A-Za-z][A-Za-z0-9_.-]{0,63}$/;

/** The wire code of an answer Prefer asked for with a status that no code of the table has. */
export const PREFER_CODE = 'prefer_code';

/**
 * The answer to `Prefer: code=NNN` with an error status: an error body (in `shape`, the contract's for it) with
 * the code the contract's example for that status uses (pet_not_found for getPet's 404), with a message that says
 * what happened, never the example's placeholder message (`no pet has id 42` for /pets/1). Nothing is looked up or
 * changed.
 */
export function preferredError(
  operation: Operation,
  status: number,
  askedBy: string,
  shape: ErrorBodyShape | undefined,
): MockResponse {
  const example = contractExample(operation, status) as { code?: unknown } | undefined;
  // The contract's own code for this status, whatever it is (an edited contract's `maintenance` for a 503), as
  // long as it reads as a code; one the mock also uses for another status is not taken.
  const exampleCode = typeof example?.code === 'string' && EXAMPLE_CODE.test(example.code) ? example.code : undefined;
  const known = exampleCode !== undefined && exampleCode in ERROR_CODES;
  const code =
    (exampleCode !== undefined && (!known || statusOf(exampleCode) === status) ? exampleCode : USUAL_CODE[status]) ?? PREFER_CODE;
  const message = `${askedBy}: code=${status} asked for this answer; nothing was looked up or changed`;
  return errorAnswer(status, code, message, shape);
}
