import type { Operation } from '../../../contract/operation.js';

/** The operation's documented success statuses, as a step expects them (201, or a range such as '2XX'). */
export function successStatuses(operation: Operation): (number | string)[] {
  return operation.responses.filter((r) => r.code.startsWith('2')).map((r) => (/^\d+$/.test(r.code) ? Number(r.code) : r.code));
}

/**
 * The refusal the contract documents for a request it calls invalid (400, 422, or the 4XX range), or undefined:
 * then the contract leaves the answer open, and a case sending such input only observes it (a server error still
 * fails: no-server-error judges every answer). A `default` response documents an error's shape, not a refusal.
 */
export function invalidInputStatus(operation: Operation): number | '4XX' | undefined {
  const code = INVALID_INPUT.find((c) => operation.responses.some((r) => r.code === c));
  return code === undefined ? undefined : code === '4XX' ? code : Number(code);
}

// Most specific first: RFC 9110 §15.5.1 (400), RFC 9110 §15.5.21 (422), then a documented range.
const INVALID_INPUT = ['400', '422', '4XX'] as const;

/** Every documented status but the auth refusals: what a valid, authenticated request may get. */
export function documentedAnswers(operation: Operation): (number | string)[] {
  return operation.responses
    .filter((r) => r.code !== '401' && r.code !== '403' && r.code !== 'default')
    .map((r) => (/^\d+$/.test(r.code) ? Number(r.code) : r.code));
}
