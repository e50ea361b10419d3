import type { MockContext } from '../mock-context.js';
import type { RequestState } from '../request-state.js';
import { markApplied } from './note-applied.js';
import { NO_PREFERENCES, readPreferences } from './read-preferences.js';

/**
 * What the request asks with Prefer, and what a runtime rule asks for it; read once the caller is known (the key
 * is still required), so the delay applies to every answer from here on, a refusal included.
 */
export function choosePreferences(state: RequestState, mock: MockContext): void {
  const operation = state.operation!;
  const header = state.req.headers.prefer;
  const own = header === undefined ? NO_PREFERENCES : readPreferences(header);
  // A rule set through the admin API applies the same controls; what the request asks itself comes first.
  const rule = mock.rules.size === 0 ? undefined : mock.rules.match(operation.operationId, state.session);
  if (rule) state.rule = rule.id;
  if (rule && own.code === undefined && rule.preferences.code !== undefined) state.codeBy = `runtime rule ${rule.id}`;
  const preferences = rule ? { ...rule.preferences, ...own } : own;
  state.preferences = preferences;
  if (preferences.delayMs !== undefined) {
    markApplied(state, `delay=${preferences.delayMs}`);
    state.delayMs = preferences.delayMs;
  } else if (mock.delay !== undefined) {
    state.delayMs = Math.round(mock.delay.minMs + Math.random() * (mock.delay.maxMs - mock.delay.minMs));
  }
}
