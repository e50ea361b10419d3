import { findResponse } from '../find-response.js';
import type { Operation } from '../operation.js';
import type { Problem } from './problem.js';
import type { ReceivedResponse } from './received-response.js';

/** An answer whose status the operation does not document. */
export function judgeStatusDocumented(operation: Operation, response: ReceivedResponse): Problem | undefined {
  const { status } = response;
  if (findResponse(operation, status)) return undefined;
  return {
    title: `status ${status} is not documented for ${operation.operationId}`,
    received: `HTTP ${status}`,
    documented: operation.responses.map((r) => r.code).join(', '),
  };
}
