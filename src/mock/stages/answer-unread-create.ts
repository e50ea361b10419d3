import { markApplied } from '../prefer/note-applied.js';
import { withRequiredHeaders } from '../required-headers.js';
import type { Stage } from './stage.js';

/**
 * A create whose records nothing reads back (see unread-create-answers.ts): answered from the contract with what
 * the request sent, a fresh id and now, with no store, and the headers its response requires. `code=` of another documented success answers in that
 * status; `example=` and `dynamic=` ask for what only Prism makes (a named example, a body made from the schema),
 * so Prism answers those, as it does every operation without state.
 */
export const answerUnreadCreate: Stage = (state, mock) => {
  const operation = state.operation!;
  const accepted = mock.unreadCreates.get(operation.operationId);
  const { code, example, dynamic } = state.preferences;
  if (accepted === undefined || example !== undefined || dynamic !== undefined) return undefined;
  if (code !== undefined && (code < 200 || code > 299)) return undefined;
  const answer = accepted.answer(state.input!, code ?? accepted.status);
  if (answer !== undefined && code !== undefined) markApplied(state, `code=${code}`);
  return answer && withRequiredHeaders(operation, answer);
};
