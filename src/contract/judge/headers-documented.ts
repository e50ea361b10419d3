import { findResponse } from '../find-response.js';
import type { Operation, ResponseSpec } from '../operation.js';
import type { Problem } from './problem.js';
import type { ReceivedResponse } from './received-response.js';

/** An answer without a header its documented response requires. */
export function judgeHeadersDocumented(operation: Operation, response: ReceivedResponse): Problem | undefined {
  const documented = findResponse(operation, response.status);
  if (documented === undefined) return undefined;
  const required = requiredHeaders(documented);
  if (required.length === 0) return undefined;
  const missing = required.filter((h) => response.headers[h.name] === undefined).map((h) => h.name);
  if (missing.length === 0) return undefined;
  return {
    title: `missing header${missing.length > 1 ? 's' : ''} ${missing.join(', ')}`,
    received: `headers: ${Object.keys(response.headers).join(', ')}`,
    documented: `required: ${required.map((h) => h.name).join(', ')}`,
  };
}

// Every answer is held to its response's required headers: each response's are picked out once.
const requiredOf = new WeakMap<ResponseSpec, ResponseSpec['headers']>();

function requiredHeaders(response: ResponseSpec): ResponseSpec['headers'] {
  let headers = requiredOf.get(response);
  if (headers === undefined) {
    headers = response.headers.filter((h) => h.required);
    requiredOf.set(response, headers);
  }
  return headers;
}
