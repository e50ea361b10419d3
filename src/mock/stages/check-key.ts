import type { Stage } from './stage.js';

/** The operation's security (seed, Authentication): the key where its scheme puts it (src/contract/key-placement.ts). */
export const checkKey: Stage = (state, mock) => {
  const key = state.operation!.key;
  if (key === undefined) return undefined;
  const denied = mock.authenticate(key, {
    headers: state.req.headers,
    rawHeaders: state.req.rawHeaders,
    query: state.parsedQuery,
  });
  if (denied) throw denied;
  return undefined;
};
