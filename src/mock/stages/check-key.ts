import type { Stage } from './stage.js';

/** The operation's security (seed, Authentication: a bearer key). */
export const checkKey: Stage = (state, mock) => {
  if (state.operation!.auth !== 'bearer') return undefined;
  const denied = mock.authenticate(state.req.headers.authorization);
  if (denied) throw denied;
  return undefined;
};
