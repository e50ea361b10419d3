import { authenticateAny } from '../authenticate.js';
import type { Stage } from './stage.js';

/**
 * The operation's security (seed, Authentication): the key where one of its alternatives puts it
 * (src/contract/key-placement.ts), the runner's own place first.
 */
export const checkKey: Stage = (state, mock) => {
  const { key, otherKeys } = state.operation!;
  if (key === undefined) return undefined;
  const source = { headers: state.req.headers, rawHeaders: state.req.rawHeaders, query: state.parsedQuery };
  const denied =
    otherKeys === undefined ? mock.authenticate(key, source) : authenticateAny(mock.authenticate, [key, ...otherKeys], source);
  if (denied) throw denied;
  return undefined;
};
