import type { Operation } from '../../contract/operation.js';
import type { MockResponse } from '../handler.js';

/** `Prefer: fault=malformed`: the operation's success status and JSON type, and a body that is not JSON. */
export function malformedResponse(operation: Operation): MockResponse {
  const success = operation.responses.find((r) => r.code.startsWith('2'))?.code;
  const status = success === undefined || success === '2XX' ? 200 : Number(success);
  return { status, body: '{"malformed": ', headers: { 'Content-Type': 'application/json' } };
}
