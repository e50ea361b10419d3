import { malformedResponse } from '../connection/malformed-response.js';
import { contractShape } from '../error-response.js';
import { checkPreferredStatus, isError, preferredError } from '../prefer/preferred-status.js';
import type { Preferences } from '../prefer/read-preferences.js';
import { markApplied, markNotApplied, type RequestState } from '../request-state.js';
import type { Stage } from './stage.js';

/** The preferences that choose the answer (delay only postpones it). */
export const CONTROLS = ['code', 'fault', 'example', 'dynamic'] as const satisfies readonly (keyof Preferences)[];

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

/** Marks those of `names` the request asked for as not applied, and why. */
export function notApplied(state: RequestState, names: readonly (typeof CONTROLS)[number][], why: string): void {
  for (const name of names) {
    const value = state.preferences[name];
    if (value !== undefined) markNotApplied(state, `${name}=${value}: ${why}`);
  }
}

// A fault that sends nothing: send closes or resets the connection instead.
const NO_ANSWER = Object.freeze({ status: 0, body: '' });
