import type { IncomingMessage, ServerResponse } from 'node:http';

/** '*' allows every origin (the default: a mock serves whatever app a developer runs). */
export type CorsOrigins = '*' | readonly string[];

// Headers a browser app needs to read from our answers: the deprecation signals, Location, what Prefer applied,
// and Allow on a 405 (the CORS-safelisted ones, Content-Type and Content-Length among them, need no listing).
const EXPOSED = 'Deprecation, Sunset, Link, Location, WWW-Authenticate, Preference-Applied, Allow';

/**
 * Adds CORS headers for an allowed Origin, echoing it (never '*', so credentialed requests work too).
 * Returns true when the request is a preflight, which the caller answers with 204 before authentication:
 * preflights carry no credentials (Fetch standard). `methods` is what a preflight advertises: the methods the
 * mock answers, as one header value.
 */
export function applyCors(req: IncomingMessage, res: ServerResponse, origins: CorsOrigins, methods: string): boolean {
  const origin = req.headers.origin;
  const allowed = origin !== undefined && (origins === '*' || origins.includes(origin));
  if (allowed) {
    res.setHeader('Access-Control-Allow-Origin', origin);
    res.setHeader('Access-Control-Allow-Credentials', 'true');
    res.setHeader('Access-Control-Expose-Headers', EXPOSED);
  }
  res.setHeader('Vary', 'Origin');
  const isPreflight =
    req.method === 'OPTIONS' && origin !== undefined && req.headers['access-control-request-method'] !== undefined;
  if (!isPreflight) return false;
  if (allowed) {
    res.setHeader('Access-Control-Allow-Methods', methods);
    res.setHeader(
      'Access-Control-Allow-Headers',
      req.headers['access-control-request-headers'] ?? 'Authorization, Content-Type, Prefer, X-Mock-Session',
    );
    res.setHeader('Access-Control-Max-Age', '600');
  }
  return true;
}
