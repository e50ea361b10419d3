import { decideCors } from '../cors.js';
import { mockError } from '../error-codes.js';
import { hostnameOf } from '../host-names.js';
import type { Stage } from './stage.js';

/**
 * CORS, before routing: a 404 or 405 carries the CORS headers too, so a page can read why it failed, and a
 * preflight (no credentials, RFC 9110 does not apply to it) is answered 204 whatever the path.
 */
export const applyCors: Stage = (state, mock) => {
  if (state.admin) return guardAdmin(state, mock);
  const cors = decideCors(state.req, mock.corsOrigins, mock.contractMethods);
  state.headers = cors.headers;
  return cors.preflight ? NO_CONTENT : undefined;
};

// The admin endpoints change the mock's state and are not CORS-enabled: a page on another origin must not reach
// them (a form POST to /__admin/reset would wipe a developer's data). Browsers send Origin on every cross-origin
// request and on every POST; curl and test suites send none. Only origins given explicitly may call them.
const guardAdmin: Stage = (state, { admin }) => {
  // DNS rebinding: a page on evil.example whose name now points at 127.0.0.1 is same-origin to itself and sends
  // no Origin on a GET; its Host header still names evil.example.
  const host = state.host;
  if (host !== undefined && !admin.hosts.has(hostnameOf(host))) {
    throw mockError(
      'admin_wrong_host',
      `the admin endpoints answer only requests addressed to the mock (Host ${[...admin.hosts].join(', ')}), not Host ${host.slice(0, 100)}`,
    );
  }
  const origin = state.req.headers.origin;
  if (origin === undefined || origin === admin.ownOrigin) return undefined;
  if (!admin.origins.includes(origin)) {
    throw mockError(
      'admin_cross_origin',
      `the admin endpoints refuse browser requests from another origin (Origin: ${origin}): allow one with --cors-origin`,
    );
  }
  const cors = decideCors(state.req, admin.origins, admin.methods);
  state.headers = cors.headers;
  return cors.preflight ? NO_CONTENT : undefined;
};

const NO_CONTENT = Object.freeze({ status: 204, body: '' });
