import type { Operation } from './operation.js';

/**
 * The refusal the contract documents for a request it calls invalid (400, 422, or the 4XX range), or undefined:
 * then the contract leaves the answer open, and a case sending such input only observes it (a server error still
 * fails: no-server-error judges every answer), and the mock answers its own 400. A `default` response documents an error's shape, not a refusal.
 */
export function invalidInputStatus(operation: Operation): number | '4XX' | undefined {
  const code = INVALID_INPUT.find((c) => operation.responses.some((r) => r.code === c));
  return code === undefined ? undefined : code === '4XX' ? code : Number(code);
}

// Most specific first: RFC 9110 §15.5.1 (400), RFC 9110 §15.5.21 (422), then a documented range.
const INVALID_INPUT = ['400', '422', '4XX'] as const;

/**
 * Every refusal of an invalid request the operation documents, most specific first (`[400, 422]` where both are):
 * a server may answer with any of them (a syntax error 400, a schema violation 422), the runner takes each.
 */
export function invalidInputStatuses(operation: Operation): (number | '4XX')[] {
  return INVALID_INPUT.filter((c) => operation.responses.some((r) => r.code === c)).map((c) => (c === '4XX' ? c : Number(c)));
}
