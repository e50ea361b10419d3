import type { RequestState } from '../request-state.js';
import type { Preferences } from './read-preferences.js';

// Preference-Applied (RFC 7240 §3) and the log's notes of what was not applied, with why: what each stage that
// decides on a preference writes down.

/** The preferences that choose the answer (delay only postpones it). */
export const CONTROLS = ['code', 'fault', 'example', 'dynamic'] as const satisfies readonly (keyof Preferences)[];

export function markApplied(state: RequestState, preference: string): void {
  state.applied ??= [];
  state.applied.push(preference);
}

/**
 * At most NOTES_KEPT notes of NOTE_CHARS each, then only a count: a Prefer header may list thousands of unknown
 * preferences, and each note is kept in the journal and written to the log.
 */
export function markNotApplied(state: RequestState, why: string): void {
  state.notApplied ??= [];
  if (state.notApplied.length >= NOTES_KEPT) {
    state.notAppliedMore++;
    return;
  }
  state.notApplied.push(why.length <= NOTE_CHARS ? why : `${why.slice(0, NOTE_CHARS)}… (${why.length} characters)`);
}

/** The notes as the journal and the log show them, the count of those not kept last. */
export function notAppliedNotes(state: RequestState): string[] | undefined {
  if (!state.notApplied || state.notAppliedMore === 0) return state.notApplied;
  return [...state.notApplied, `and ${state.notAppliedMore} more not applied`];
}

/** Marks those of `names` the request asked for as not applied, and why. */
export function notApplied(state: RequestState, names: readonly (typeof CONTROLS)[number][], why: string): void {
  for (const name of names) {
    const value = state.preferences[name];
    if (value !== undefined) markNotApplied(state, `${name}=${value}: ${why}`);
  }
}

const NOTES_KEPT = 8;
const NOTE_CHARS = 200;
