import { isAppError } from '../contract/app-error.js';
import { invalidInputStatus } from '../contract/invalid-input-status.js';
import type { ErrorBodyShape } from '../contract/error-body/shape-error-body.js';
import { errorBody, statusOf } from './error-codes.js';
import type { MockResponse } from './handler.js';
import type { MockContext } from './mock-context.js';
import type { RequestState } from './request-state.js';

/**
 * The answer to an error thrown on the request path: the edge where every AppError becomes an error body, in the
 * shape the contract gives its errors where the request reached the API (see contractShape).
 */
export function errorResponse(error: unknown, mock: MockContext, state: RequestState): MockResponse {
  if (isAppError(error)) {
    const { code, message } = error;
    const status = refusalStatus(code, state);
    return errorAnswer(status, code, message, contractShape(mock, state, status), authHeaders(status, state));
  }
  // Anything that is not an AppError is a bug in the mock: say so, and keep serving.
  const message = `the mock failed to answer: ${(error as Error)?.message ?? String(error)}`;
  return errorAnswer(500, 'internal_error', message, contractShape(mock, state, 500));
}

// Refusals of the request's input: answered with the status the operation documents for invalid input where it
// documents 422 and no 400 (a 400 would be a status the contract does not give the operation).
const INPUT_REFUSALS = new Set([
  'validation_failed',
  'invalid_json',
  'missing_body',
  'invalid_parameter',
  'invalid_content_type',
]);

function refusalStatus(code: string, state: RequestState): number {
  const status = statusOf(code);
  if (state.operation && code === 'invalid_path_parameter') return pathRefusalStatus(state.operation, status);
  if (!state.operation || !INPUT_REFUSALS.has(code)) return status;
  const documented = invalidInputStatus(state.operation);
  return typeof documented === 'number' ? documented : status;
}

// A path value its schema refuses names no resource: 404 where the operation documents it (getPet). Where it
// documents no 404 but a refusal of invalid input (a PUT with 204 and 400 alone), that refusal: the runner's
// parameter cases expect it, and a 404 would be a status the contract does not give the operation.
function pathRefusalStatus(operation: NonNullable<RequestState['operation']>, status: number): number {
  if (operation.responses.some((r) => r.code === '404' || r.code === '4XX')) return status;
  const documented = invalidInputStatus(operation);
  return typeof documented === 'number' ? documented : status;
}

/**
 * The body the contract documents for this status of the request's operation; for a path of the API that names no
 * operation (a 404, a 405), the contract's most common error body. None outside the API (the admin endpoints,
 * another base path, a request refused before it was routed): those keep the mock's own Error body.
 */
export function contractShape(mock: MockContext, state: RequestState, status: number): ErrorBodyShape | undefined {
  if (state.operation) return mock.errorBodies.shapeFor(state.operation, status);
  return state.relative === '' ? undefined : mock.errorBodies.common(status);
}

/**
 * An error answer in the contract's shape for it (src/contract/error-body/), in its documented media type; without
 * one (outside the API, a contract with no error body or none that can be made valid), the mock's own Error body.
 */
export function errorAnswer(
  status: number,
  code: string,
  message: string,
  shape: ErrorBodyShape | undefined,
  headers?: Readonly<Record<string, string>>,
): MockResponse {
  if (!shape) return { status, body: errorBody(code, message, status), headers, errorCode: code };
  const body = shape.body(code, message);
  if (shape.mediaType === 'application/json') return { status, body, headers, errorCode: code };
  return { status, body, headers: { ...headers, 'Content-Type': shape.mediaType }, errorCode: code };
}

// RFC 9110 §15.5.2, RFC 6750 §3, RFC 7617 §2: a 401 names the HTTP authentication scheme the client should use.
// An apiKey scheme is no HTTP authentication scheme: there is no challenge to name, and Bearer would mislead.
const CHALLENGES = {
  bearer: { 'WWW-Authenticate': 'Bearer realm="petstore"' },
  basic: { 'WWW-Authenticate': 'Basic realm="petstore", charset="UTF-8"' },
} as const;

function authHeaders(status: number, state: RequestState): Record<string, string> | undefined {
  if (status !== 401) return undefined;
  const { key, otherKeys = [] } = state.operation ?? {};
  if (key === undefined) return CHALLENGES.bearer;
  // Where an HTTP scheme is one of the alternatives (an API key OR a bearer token), the first is named.
  const scheme = [key, ...otherKeys].find((one) => one.scheme !== 'apiKey')?.scheme;
  return scheme === undefined ? undefined : CHALLENGES[scheme];
}
