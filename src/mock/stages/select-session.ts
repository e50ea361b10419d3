import { readSession, SESSION_HEADER } from '../session-stores.js';
import type { Stage } from './stage.js';

/** X-Mock-Session: which store the request works on. */
export const selectSession: Stage = (state) => {
  state.session = readSession(state.req.headers[SESSION_HEADER]);
  return undefined;
};
