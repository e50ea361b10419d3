import type { Operation } from '../../../contract/operation.js';

export { invalidInputStatus, invalidInputStatuses } from '../../../contract/invalid-input-status.js';

/** The operation's documented success statuses, as a step expects them (201, or a range such as '2XX'). */
export function successStatuses(operation: Operation): (number | string)[] {
  return operation.responses.filter((r) => r.code.startsWith('2')).map((r) => (/^\d+$/.test(r.code) ? Number(r.code) : r.code));
}

/** Every documented status but the auth refusals: what a valid, authenticated request may get. */
export function documentedAnswers(operation: Operation): (number | string)[] {
  return operation.responses
    .filter((r) => r.code !== '401' && r.code !== '403' && r.code !== 'default')
    .map((r) => (/^\d+$/.test(r.code) ? Number(r.code) : r.code));
}
