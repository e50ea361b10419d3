import type { Operation } from '../contract/operation.js';
import type { Fault } from './read-preferences.js';

/**
 * One request's state as it passes the stages (route → CORS → auth → body → validate → control → handler or
 * Prism → send): what each stage decided that a later one, and the log and journal, need.
 */
export interface RequestState {
  readonly started: number;
  operation?: Operation;
  /** Headers decided along the way (CORS, Allow), written once by send. */
  headers?: Readonly<Record<string, string>>;
  /** The session the request named with X-Mock-Session; undefined for the default store. */
  session?: string;
  /** The id of the admin rule that applied to the request. */
  rule?: number;
  /** Set by the control stage: wait this long before sending. */
  delayMs: number;
  /** Set by the control stage: answer with this fault instead of a response. */
  fault?: Fault;
  /** Preferences applied (the Preference-Applied header, RFC 7240 §3) and not applied (with why, for the log). */
  applied?: string[];
  notApplied?: string[];
  /** An admin request: logged, not journaled (the journal shows what the app sent). */
  admin?: boolean;
  /** The request body as read, for the journal and onExchange. */
  requestBody?: string;
}

export function newRequestState(started: number): RequestState {
  return { started, delayMs: 0 };
}

export function markApplied(state: RequestState, preference: string): void {
  state.applied ??= [];
  state.applied.push(preference);
}

export function markNotApplied(state: RequestState, why: string): void {
  state.notApplied ??= [];
  state.notApplied.push(why);
}
