import { mockError } from '../error-codes.js';
import { hostnameOf } from '../boundary/host-names.js';
import type { Stage } from './stage.js';

/**
 * The Host allow-list, on every path, before anything else is decided: a DNS-rebinding page reads /v1 as well as
 * /__admin, and needs no CORS to do it. The authority of an absolute-form target stands in for Host (readTarget).
 */
export const checkHost: Stage = (state, mock) => {
  const authority = state.host;
  // An HTTP/1.0 request without Host: no browser sends one.
  if (authority === undefined) return undefined;
  // http://127.0.0.1:4010@evil.example/ names evil.example: what precedes the last @ is userinfo (RFC 3986 §3.2.1).
  const at = authority.lastIndexOf('@');
  const name = hostnameOf(at === -1 ? authority : authority.slice(at + 1));
  if (!mock.allowsHost(name)) {
    throw mockError(
      'host_not_allowed',
      `the mock answers only requests addressed to it, not Host ${name.slice(0, 100)}: allow that name with --allowed-host (loopback names and the --host address are allowed)`,
    );
  }
  // RFC 9110 §4.2.4: a recipient treats userinfo in an http(s) URI as an error.
  if (at !== -1)
    throw mockError(
      'malformed_request',
      'the request target carries userinfo (user@host), which an http URI must not (RFC 9110 §4.2.4)',
    );
  return undefined;
};
