import { countField } from '../count-field.js';
import { mockError } from '../error-codes.js';
import { normalizePath } from '../normalize-path.js';
import { ADMIN_PREFIX } from '../admin/admin-routes.js';
import type { Stage } from './stage.js';

/**
 * The request target (RFC 9112 §3.2): its path and query, and the host it is addressed to. An absolute-form target
 * (`GET http://127.0.0.1:4010/v1/pets`, §3.2.2) is served as the path it names, and its authority stands in for
 * the Host header, as that section requires of an origin server.
 */
export const readTarget: Stage = (state, mock) => {
  const { req } = state;
  const headers = req.headers;
  // Node's parser takes HTTP/0.9 and HTTP/2.0 request lines (an HTTP/2 client's connection preface, PRI * HTTP/2.0,
  // among them) and would have them answered as HTTP/1.1. RFC 9110 §15.6.6: a major version the server does not
  // serve is a 505.
  if (req.httpVersionMajor !== 1) {
    throw mockError(
      'http_version_not_supported',
      `HTTP/${req.httpVersionMajor}.${req.httpVersionMinor} is not served: the mock speaks HTTP/1.1 (and HTTP/1.0)`,
    );
  }
  // RFC 9110 §9.3.6: CONNECT asks for a tunnel, which only a proxy makes. Allow lists what the mock does answer.
  if (req.method === 'CONNECT') {
    state.headers = ['Allow', mock.contractMethods];
    throw mockError('method_not_allowed', 'CONNECT asks for a tunnel: the mock is not a proxy');
  }
  // Node lets a request without Host through (requireHostHeader is off, so that it gets an Error body here).
  if (headers.host === undefined && req.httpVersionMajor === 1 && req.httpVersionMinor >= 1) {
    throw mockError('malformed_request', 'the request has no Host header: HTTP/1.1 requires one (RFC 9112 §3.2)');
  }
  // RFC 9112 §3.2: more than one Host is a 400. Node keeps the first, and a second one could slip past the admin
  // endpoints' Host check.
  if (countField(req.rawHeaders, 'host') > 1) throw mockError('malformed_request', 'the request has more than one Host header');
  // RFC 9112 §3.2: a Host that is not uri-host[:port] is a 400 too (127.0.0.1:abc, or a list of hosts).
  if (headers.host !== undefined && !HOST.test(headers.host)) {
    throw mockError('malformed_request', 'the Host header is not a host and an optional port (RFC 9110 §7.2)');
  }
  // Node hands every Expect but 100-continue to 'checkExpectation', which runs the stages too.
  const expect = headers.expect;
  if (expect !== undefined && !CONTINUE.test(expect)) {
    throw mockError(
      'expectation_failed',
      `Expect: ${expect.slice(0, 100)} is not an expectation the mock meets (only 100-continue)`,
    );
  }
  let target = req.url ?? '/';
  state.host = headers.host;
  if (target.charCodeAt(0) !== SLASH) {
    const absolute = splitAbsoluteForm(target);
    if (absolute) {
      state.host = absolute.authority;
      target = absolute.pathAndQuery;
    }
  }
  const q = target.indexOf('?');
  state.path = normalizePath(q === -1 ? target : target.slice(0, q));
  state.query = q === -1 ? '' : target.slice(q + 1);
  state.admin = state.path.startsWith(ADMIN_PREFIX) && state.path.charCodeAt(ADMIN_PREFIX.length) === SLASH;
  return undefined;
};

// uri-host (RFC 3986 §3.2.2: an IP literal in brackets, or a reg-name of unreserved, pct-encoded and sub-delims
// characters) and an optional port of digits. No class overlaps the next, so nothing backtracks.
const HOST = /^(?:\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9._~!$&'()*+,;=%-]*)(?::[0-9]*)?$/;
const SLASH = 47;
// Node's own test for 100-continue (lib/_http_server.js): a list that holds it counts as it.
const CONTINUE = /(?:^|\W)100-continue(?:$|\W)/i;

/** `http://host:port/path?query` → its authority and `/path?query`; undefined for any other form. */
function splitAbsoluteForm(target: string): { authority: string; pathAndQuery: string } | undefined {
  const scheme = target.indexOf('://');
  if (scheme === -1) return undefined;
  const name = target.slice(0, scheme).toLowerCase();
  if (name !== 'http' && name !== 'https') return undefined;
  const start = scheme + 3;
  let end = start;
  while (end < target.length && target[end] !== '/' && target[end] !== '?') end++;
  const rest = target.slice(end);
  // An empty path is '/' (RFC 9112 §3.2.2 refers to RFC 9110 §4.2.3).
  return { authority: target.slice(start, end), pathAndQuery: rest === '' || rest[0] === '?' ? `/${rest}` : rest };
}
