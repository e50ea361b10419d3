import { mockError } from '../error-codes.js';
import { normalizePath } from '../normalize-path.js';
import { ADMIN_PREFIX } from '../admin-routes.js';
import type { Stage } from './stage.js';

/** The request target (RFC 9112 §3.2): its path and query, and the host it is addressed to. */
export const readTarget: Stage = (state) => {
  const { req } = state;
  const headers = req.headers;
  // RFC 9112 §3.2: more than one Host is a 400. Node keeps the first, and a second one could slip past the admin
  // endpoints' Host check.
  if (countHost(req.rawHeaders) > 1) throw mockError('malformed_request', 'the request has more than one Host header');
  const target = req.url ?? '/';
  state.host = headers.host;
  const q = target.indexOf('?');
  state.path = normalizePath(q === -1 ? target : target.slice(0, q));
  state.query = q === -1 ? '' : target.slice(q + 1);
  state.admin = state.path.startsWith(ADMIN_PREFIX) && state.path.charCodeAt(ADMIN_PREFIX.length) === SLASH;
  return undefined;
};

const SLASH = 47;

function countHost(rawHeaders: readonly string[]): number {
  let count = 0;
  for (let i = 0; i < rawHeaders.length; i += 2) if ((rawHeaders[i] as string).toLowerCase() === 'host') count++;
  return count;
}
