import { decideCors } from '../boundary/cors.js';
import { mockError } from '../error-codes.js';
import { isLoopbackPeer } from '../boundary/loopback.js';
import type { Stage } from './stage.js';

/**
 * CORS, before routing: a 404 or 405 carries the CORS headers too, so a page can read why it failed, and a
 * preflight (no credentials, RFC 9110 does not apply to it) is answered 204 whatever the path.
 */
export const applyCors: Stage = (state, mock) => {
  if (state.admin) return guardAdmin(state, mock);
  const cors = decideCors(state.req, mock.cors, mock.contractMethods);
  state.headers = cors.headers;
  if (cors.preflight) return NO_CONTENT;
  // CORS only keeps the answer from the page; the request itself is acted on. A <form> POST (urlencoded, text/plain
  // or multipart: no preflight) from any site would otherwise create records through an operation that takes such
  // a body, without a key, or with a key in the query or a cookie (the development key is public). A browser sends
  // Origin on every request that is not a GET or HEAD, so a write from a page the mock does not answer is refused.
  if (cors.foreign && !SAFE_METHODS.has(state.req.method ?? 'GET')) {
    throw mockError(
      'cross_origin_write',
      `the mock refuses ${state.req.method} from a page of another site (Origin: ${(state.req.headers.origin ?? '').slice(0, 100)}): allow that origin with --cors-origin`,
    );
  }
  return undefined;
};

// RFC 9110 §9.2.1: methods that ask for no change.
const SAFE_METHODS: ReadonlySet<string> = new Set(['GET', 'HEAD', 'OPTIONS']);

// The admin endpoints change the mock's state and are not CORS-enabled: a page on another origin must not reach
// them (a form POST to /__admin/reset would wipe a developer's data). Browsers send Origin on every cross-origin
// request and on every POST; curl and test suites send none. Only origins given explicitly may call them.
const guardAdmin: Stage = (state, { admin }) => {
  // With --host 0.0.0.0 any machine on the network can send any Host: its address is what tells.
  const peer = state.req.socket.remoteAddress;
  if (!admin.fromNetwork && !isLoopbackPeer(peer)) {
    throw mockError(
      'admin_not_loopback',
      `the admin endpoints answer only clients on this machine (a loopback address), not ${String(peer).slice(0, 60)}: start the mock with --admin-from-network to let others in`,
    );
  }
  const origin = state.req.headers.origin;
  if (origin === undefined) {
    // A GET or HEAD no CORS request makes (an <img>, a <script>) carries no Origin, but a browser says in Fetch
    // Metadata that another site's page made it. A link followed (a GET navigation) shows the answer to the user
    // alone; a form that posts to /__admin/reset is a navigation too, and changes the store.
    const site = state.req.headers['sec-fetch-site'];
    const followed = state.req.headers['sec-fetch-mode'] === 'navigate' && SAFE_METHODS.has(state.req.method ?? 'GET');
    if ((site === 'cross-site' || site === 'same-site') && !followed) {
      throw mockError(
        'admin_cross_origin',
        `the admin endpoints refuse what a page of another site embeds or fetches (Sec-Fetch-Site: ${site}): call them from curl, a test, or an origin allowed with --cors-origin`,
      );
    }
    return undefined;
  }
  if (origin === admin.ownOrigin) return undefined;
  // Any page can send null (a sandboxed frame, a data: URL), whatever --cors-origin says.
  if (origin === 'null') {
    throw mockError(
      'admin_cross_origin',
      'the admin endpoints never answer Origin: null (a sandboxed frame or a data: page, of any site)',
    );
  }
  if (!admin.cors.listed.includes(origin)) {
    throw mockError(
      'admin_cross_origin',
      `the admin endpoints refuse browser requests from another origin (Origin: ${origin.slice(0, 100)}): allow one with --cors-origin`,
    );
  }
  const cors = decideCors(state.req, admin.cors, admin.methods);
  state.headers = cors.headers;
  return cors.preflight ? NO_CONTENT : undefined;
};

const NO_CONTENT = Object.freeze({ status: 204, body: '' });
