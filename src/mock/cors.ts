import type { IncomingMessage } from 'node:http';
import type { HeaderList } from './request-state.js';

/** '*' allows every origin (the default: a mock serves whatever app a developer runs). */
export type CorsOrigins = '*' | readonly string[];

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
}

const NO_ORIGIN: CorsDecision = { headers: VARY_ONLY, preflight: false };

/**
 * The CORS headers for an allowed Origin, echoing it (never '*', so credentialed requests work too). `methods` is
 * what a preflight advertises: the methods the mock answers, as one header value.
 */
export function decideCors(req: IncomingMessage, origins: CorsOrigins, methods: string): CorsDecision {
  const origin = req.headers.origin;
  const preflight = req.method === 'OPTIONS' && origin !== undefined && req.headers['access-control-request-method'] !== undefined;
  if (origin === undefined) return NO_ORIGIN;
  if (origins !== '*' && !origins.includes(origin)) return { headers: VARY_ONLY, preflight };
  const headers = [
    'Access-Control-Allow-Origin',
    origin,
    'Access-Control-Allow-Credentials',
    'true',
    'Access-Control-Expose-Headers',
    EXPOSED,
    'Vary',
    'Origin',
  ];
  if (preflight) {
    headers.push(
      'Access-Control-Allow-Methods',
      methods,
      'Access-Control-Allow-Headers',
      req.headers['access-control-request-headers'] ?? 'Authorization, Content-Type, Prefer, X-Mock-Session',
      'Access-Control-Max-Age',
      '600',
    );
    // Private Network Access: a page served from a public address (a deployed preview of the app) may call this
    // mock on loopback only once its preflight is answered so.
    if (req.headers['access-control-request-private-network'] === 'true') headers.push('Access-Control-Allow-Private-Network', 'true');
  }
  return { headers, preflight };
}
