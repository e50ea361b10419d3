import { AppError } from '../contract/app-error.js';
import { stringifyJson } from '../contract/lossless-json.js';

/**
 * Every error the mock answers, by its stable wire code. The contract leaves the set of codes open
 * (seed, Errors: "The set of values of code: not shown"); this table is the mock's documented set.
 */
export const ERROR_CODES = {
  missing_authorization: { status: 401, message: 'the Authorization header is missing: send Authorization: Bearer <API_KEY>' },
  repeated_authorization: {
    status: 401,
    message: 'the request carries more than one Authorization header: send one, Authorization: Bearer <API_KEY>',
  },
  unsupported_auth_scheme: { status: 401, message: 'the Authorization header must use the Bearer scheme' },
  empty_api_key: { status: 401, message: 'the Authorization header has the Bearer scheme but no API key' },
  invalid_api_key: { status: 401, message: 'the API key is not valid' },
  missing_api_key: { status: 401, message: "the API key is missing: send it where the contract's apiKey scheme says" },
  repeated_api_key: { status: 401, message: 'the request carries the API key more than once: send it once' },
  malformed_request: { status: 400, message: 'the request is not valid HTTP/1.1' },
  invalid_content_type: { status: 400, message: 'the request body must be sent with Content-Type: application/json' },
  unsupported_content_encoding: { status: 400, message: 'the mock does not decode request bodies: send them uncompressed' },
  missing_body: { status: 400, message: 'body: a JSON request body is required' },
  request_incomplete: { status: 400, message: 'body: the request ended before its whole body arrived' },
  invalid_json: { status: 400, message: 'body: the request body is not valid JSON' },
  validation_failed: { status: 400, message: 'the request is not valid' },
  invalid_parameter: { status: 400, message: 'a query or header parameter is not valid' },
  invalid_rule: { status: 400, message: 'the rule given to POST /__admin/rules is not valid' },
  invalid_session: { status: 400, message: 'the X-Mock-Session header is not a valid session name' },
  host_not_allowed: { status: 403, message: 'the mock answers only requests addressed to it by a name it was given' },
  admin_not_loopback: { status: 403, message: 'the admin endpoints answer only clients on this machine' },
  admin_cross_origin: { status: 403, message: 'the admin endpoints refuse browser requests from another origin' },
  cross_origin_write: { status: 403, message: 'the mock refuses a write a page of another site sent' },
  invalid_path_parameter: { status: 404, message: 'the path names no resource: a path parameter is not valid' },
  pet_not_found: { status: 404, message: 'no pet has that id' },
  record_not_found: { status: 404, message: 'no record of this resource has that id' },
  not_found: { status: 404, message: 'no operation of the contract has this path' },
  method_not_allowed: { status: 405, message: 'the contract defines other methods for this path' },
  not_acceptable: { status: 406, message: 'the contract defines no response in a media type the Accept header allows' },
  request_timeout: { status: 408, message: 'the request did not arrive in time' },
  too_many_sessions: { status: 409, message: 'the mock holds its maximum number of sessions' },
  store_full: { status: 409, message: 'the mock holds its maximum number of pets' },
  precondition_failed: {
    status: 412,
    message: 'If-Match names no entity tag of the record: it changed since it was read (read it again for its ETag)',
  },
  payload_too_large: { status: 413, message: 'the request body is larger than the limit' },
  expectation_failed: { status: 417, message: 'the request has an Expect the mock does not meet (only 100-continue)' },
  precondition_required: {
    status: 428,
    message: 'the operation requires If-Match: send the ETag the record was read with (or *)',
  },
  headers_too_large: { status: 431, message: 'the request headers are too large' },
  unmockable_operation: { status: 500, message: 'the contract gives this operation no response that can be mocked' },
  internal_error: { status: 500, message: 'the mock failed to answer: this is a bug in the mock' },
  http_version_not_supported: { status: 505, message: 'the mock speaks HTTP/1.1 (and HTTP/1.0)' },
} as const satisfies Record<string, { status: number; message: string }>;

export type ErrorCode = keyof typeof ERROR_CODES;

export function mockError(code: ErrorCode, message?: string, details?: Record<string, unknown>): AppError {
  return new AppError(code, message ?? ERROR_CODES[code].message, details);
}

export function statusOf(code: string): number {
  return (ERROR_CODES as Record<string, { status: number }>)[code]?.status ?? 500;
}

/** Every status the table answers: the contract's error bodies are shaped for these at start. */
export const ERROR_STATUSES: readonly number[] = [...new Set(Object.values(ERROR_CODES).map((entry) => entry.status))];

/** The mock's own Error body (the shipped contract's): `status` always equals the HTTP status. */
export function errorBody(code: string, message: string, status = statusOf(code)): string {
  return stringifyJson({ code, message, status });
}
