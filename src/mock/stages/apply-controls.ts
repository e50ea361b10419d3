import { malformedResponse } from '../connection/malformed-response.js';
import { contractShape } from '../error-response.js';
import { checkPreferredStatus, isError, preferredError } from '../prefer/preferred-status.js';
import { CONTROLS, markApplied, notApplied } from '../prefer/note-applied.js';
import type { Stage } from './stage.js';

/**
 * Prefer (and runtime rules): a fault answers instead of the operation, an error `code=` answers at once with
 * nothing looked up or changed. A success `code=` goes on: an operation with state gives its real answer.
 */
export const applyControls: Stage = (state, mock) => {
  const { preferences } = state;
  const { code, fault } = preferences;
  if (fault !== undefined) {
    markApplied(state, `fault=${fault}`);
    notApplied(
      state,
      CONTROLS.filter((name) => name !== 'fault'),
      `fault=${fault} answers instead`,
    );
    state.fault = fault;
    return fault === 'malformed' ? malformedResponse(state.operation!) : NO_ANSWER;
  }
  if (code === undefined) return undefined;
  checkPreferredStatus(code, state.operation!);
  if (!isError(code)) return undefined;
  markApplied(state, `code=${code}`);
  notApplied(state, ['example', 'dynamic'], `code=${code} answers with an Error body instead`);
  return preferredError(state.operation!, code, state.codeBy, contractShape(mock, state, code));
};

// A fault that sends nothing: send closes or resets the connection instead.
const NO_ANSWER = Object.freeze({ status: 0, body: '' });
