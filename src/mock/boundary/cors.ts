import type { IncomingMessage } from 'node:http';
import { isLoopbackOrigin } from './loopback.js';
import type { HeaderList } from '../request-state.js';

/** --cors-origin: origins as a browser sends them; '*' (alone or in the list) lets any other page in too. */
export type CorsOrigins = '*' | readonly string[];

/** Who may read the mock's answers from a browser: loopback pages always, `listed` ones, and anyone when `any`. */
export interface CorsPolicy {
  readonly listed: readonly string[];
  readonly any: boolean;
}

export function corsPolicy(origins: CorsOrigins | undefined): CorsPolicy {
  if (origins === undefined) return { listed: [], any: false };
  if (origins === '*') return { listed: [], any: true };
  return { listed: origins.filter((origin) => origin !== '*'), any: origins.includes('*') };
}

// Headers a browser app needs to read from our answers: the deprecation signals, Location, what Prefer applied,
// and Allow on a 405 (the CORS-safelisted ones, Content-Type and Content-Length among them, need no listing).
const EXPOSED = 'Deprecation, Sunset, Link, Location, WWW-Authenticate, Preference-Applied, Allow';

// Every answer may differ by Origin; a request without one (curl, a test suite) shares this list.
const VARY_ONLY: HeaderList = ['Vary', 'Origin'];

export interface CorsDecision {
  /** The headers to send with the answer (written once, by send). */
  readonly headers: HeaderList;
  /** A preflight, which the caller answers with 204 before authentication: preflights carry no credentials. */
  readonly preflight: boolean;
  /** The request carries an Origin the policy lets in on nothing: a page of another site sent it. */
  readonly foreign: boolean;
}

const NO_ORIGIN: CorsDecision = { headers: VARY_ONLY, preflight: false, foreign: false };

interface Grant {
  readonly applies: (origin: string, policy: CorsPolicy) => boolean;
  /** Echo the Origin; else '*', which browsers never combine with credentials (Fetch, CORS check). */
  readonly echo: boolean;
  /** Access-Control-Allow-Credentials: cookies of localhost are shared by every app on it. */
  readonly credentials: boolean;
  /**
   * Access-Control-Allow-Private-Network: the opt-in a public page needs before it may call loopback (Private
   * Network Access). A loopback page calls loopback without it, so only origins listed by name get it.
   */
  readonly privateNetwork: boolean;
}

// The first row that applies decides; none applies, no CORS headers (the browser keeps the answer from the page).
const GRANTS: readonly Grant[] = [
  {
    applies: (origin, { listed }) => origin !== 'null' && listed.includes(origin),
    echo: true,
    credentials: true,
    privateNetwork: true,
  },
  { applies: isLoopbackOrigin, echo: true, credentials: true, privateNetwork: false },
  // Every sandboxed frame and data: page of every site sends null: listed, it is answered as anyone is.
  {
    applies: (origin, { listed }) => origin === 'null' && listed.includes(origin),
    echo: true,
    credentials: false,
    privateNetwork: false,
  },
  { applies: (_, { any }) => any, echo: false, credentials: false, privateNetwork: false },
];

/**
 * The CORS headers for an Origin the policy allows. `methods` is what a preflight advertises: the methods the mock
 * answers, as one header value.
 */
export function decideCors(req: IncomingMessage, policy: CorsPolicy, methods: string): CorsDecision {
  const origin = req.headers.origin;
  const preflight =
    req.method === 'OPTIONS' && origin !== undefined && req.headers['access-control-request-method'] !== undefined;
  if (origin === undefined) return NO_ORIGIN;
  const grant = GRANTS.find((row) => row.applies(origin, policy));
  if (grant === undefined) return { headers: VARY_ONLY, preflight, foreign: true };
  const headers = ['Access-Control-Allow-Origin', grant.echo ? origin : '*'];
  if (grant.credentials) headers.push('Access-Control-Allow-Credentials', 'true');
  headers.push('Access-Control-Expose-Headers', EXPOSED, 'Vary', 'Origin');
  if (preflight) {
    headers.push(
      'Access-Control-Allow-Methods',
      methods,
      'Access-Control-Allow-Headers',
      req.headers['access-control-request-headers'] ?? 'Authorization, Content-Type, Prefer, X-Mock-Session',
      'Access-Control-Max-Age',
      '600',
    );
    if (grant.privateNetwork && req.headers['access-control-request-private-network'] === 'true') {
      headers.push('Access-Control-Allow-Private-Network', 'true');
    }
  }
  return { headers, preflight, foreign: false };
}
