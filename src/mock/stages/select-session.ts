import { SESSION_HEADER } from '../session-stores.js';
import type { Stage } from './stage.js';

/** X-Mock-Session: which store the request works on. */
export const selectSession: Stage = (state, mock) => {
  state.session = mock.sessions.sessionIn(state.req.headers[SESSION_HEADER]);
  return undefined;
};
