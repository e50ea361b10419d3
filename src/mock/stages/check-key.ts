import { countField } from '../count-field.js';
import { mockError } from '../error-codes.js';
import type { Stage } from './stage.js';

/** The operation's security (seed, Authentication: a bearer key). */
export const checkKey: Stage = (state, mock) => {
  if (state.operation!.auth !== 'bearer') return undefined;
  // Node keeps the first of several Authorization fields and drops the rest without a word; a proxy may keep the
  // last. Authorization is a single field (RFC 9110 §11.6.2), so two of them are refused, whichever holds the key.
  if (countField(state.req.rawHeaders, 'authorization') > 1) throw mockError('repeated_authorization');
  const denied = mock.authenticate(state.req.headers.authorization);
  if (denied) throw denied;
  return undefined;
};
