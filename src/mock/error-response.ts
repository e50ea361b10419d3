import { isAppError } from '../contract/app-error.js';
import { errorBody, statusOf } from './error-codes.js';
import type { MockResponse } from './handler.js';

/** The answer to an error thrown on the request path: the edge where every AppError becomes an Error body. */
export function errorResponse(error: unknown): MockResponse {
  if (isAppError(error)) {
    const { code, message } = error;
    return { status: statusOf(code), body: errorBody(code, message), headers: authHeaders(code), errorCode: code };
  }
  // Anything that is not an AppError is a bug in the mock: say so, and keep serving.
  const message = `the mock failed to answer: ${(error as Error)?.message ?? String(error)}`;
  return { status: 500, body: errorBody('internal_error', message), errorCode: 'internal_error' };
}

// RFC 6750 §3: a 401 names the scheme the client should use.
function authHeaders(code: string): Record<string, string> | undefined {
  return statusOf(code) === 401 ? { 'WWW-Authenticate': 'Bearer realm="petstore"' } : undefined;
}
