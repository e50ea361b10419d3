import { findResponse } from '../find-response.js';
import type { Operation } from '../operation.js';
import type { Problem } from './problem.js';
import type { ReceivedResponse } from './received-response.js';

/** An answer without a header its documented response requires. */
export function judgeHeadersDocumented(operation: Operation, response: ReceivedResponse): Problem | undefined {
  const required = findResponse(operation, response.status)?.headers.filter((h) => h.required) ?? [];
  const missing = required.filter((h) => response.headers[h.name] === undefined).map((h) => h.name);
  if (missing.length === 0) return undefined;
  return {
    title: `missing header${missing.length > 1 ? 's' : ''} ${missing.join(', ')}`,
    received: `headers: ${Object.keys(response.headers).join(', ')}`,
    documented: `required: ${required.map((h) => h.name).join(', ')}`,
  };
}
