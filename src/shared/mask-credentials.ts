import { REDACTED } from './create-redactor.js';

/**
 * Credentials masked by where they stand, whatever their value and however short: looking for a value in text
 * (create-redactor.ts) cannot tell a four-letter key from a word, but a header named Cookie holds a credential
 * whatever it says.
 */

// Header and query parameter names that carry a credential: Authorization and Proxy-Authorization, Cookie,
// X-Api-Key, X-Auth-Token, *-Token, *-Secret, *-Session, ?api_key=... Idempotency-Key and Cache-Key carry none,
// so `key` alone is not enough.
const CREDENTIAL_NAME =
  /auth|cookie|token|secret|passw|credential|session|api[-_]?key|access[-_]?key|private[-_]?key|^(x-)?key$/i;
// Names that match but carry no credential: a challenge names the scheme to use (RFC 9110 §11.6.1, §11.7.1;
// RFC 7615), and CORS headers say what a browser may send (Fetch §3.2.3). Their text is left to redaction by value.
const NOT_A_CREDENTIAL =
  /^(www-authenticate|proxy-authenticate|authentication-info|proxy-authentication-info|access-control-.*)$/i;

/** The one rule, for the runner and the mock alike, of a header or query parameter name that holds a secret. */
export function isCredentialName(name: string): boolean {
  return CREDENTIAL_NAME.test(name) && !NOT_A_CREDENTIAL.test(name);
}

/**
 * An Authorization value with its credentials masked: the scheme says how the request authenticated (RFC 9110
 * §11.4: `auth-scheme [ 1*SP token68 / #auth-param ]`), the rest never appears.
 */
export function maskAuthorization(value: string): string {
  const scheme = value.trim().split(/\s/, 1)[0] ?? '';
  return /^[A-Za-z][A-Za-z0-9-]{0,20}$/.test(scheme) && value.trim() !== scheme ? `${scheme} ${REDACTED}` : REDACTED;
}

/**
 * A Set-Cookie value with the cookie's value masked (RFC 6265 §4.1.1: `name=value *(; attribute)`): its name
 * and attributes (HttpOnly, Secure, SameSite, Path) are what a report needs to show; the value is a session.
 */
export function maskSetCookie(value: string): string {
  const end = value.indexOf(';');
  const pair = end === -1 ? value : value.slice(0, end);
  const equals = pair.indexOf('=');
  const name = equals === -1 ? '' : pair.slice(0, equals);
  return `${name}${equals === -1 ? '' : '='}${REDACTED}${end === -1 ? '' : value.slice(end)}`;
}

/**
 * A Cookie value with its cookies' values masked (RFC 6265 §4.2.1: cookie-pairs separated by "; "): `sid=abc;
 * theme=dark` → `sid=***; theme=***`. The names say which session was sent; a pair without `=` goes whole.
 */
export function maskCookie(value: string): string {
  return value
    .split(';')
    .map((pair) => {
      const eq = pair.indexOf('=');
      return eq === -1 ? REDACTED : `${pair.slice(0, eq).trim()}=${REDACTED}`;
    })
    .join('; ');
}

/**
 * A header value masked by its name, or as it was: the one rule for the runner's records and the mock's journal.
 * Authorization keeps its scheme, Cookie and Set-Cookie their names, any other credential-named header goes whole.
 */
export function maskHeader(name: string, value: string): string {
  const lower = name.toLowerCase();
  if (lower === 'authorization' || lower === 'proxy-authorization') return maskAuthorization(value);
  if (lower === 'set-cookie' || lower === 'set-cookie2') return maskSetCookie(value);
  if (lower === 'cookie') return maskCookie(value);
  return isCredentialName(lower) ? REDACTED : value;
}

// `scheme://user:password@`: userinfo of a URL (RFC 3986 §3.2.1), as a proxy URL carries it. Each match starts
// at a `//` and stops at the next `/`, so a scan reads each character a bounded number of times.
const USERINFO = /(\/\/[^\s/@:]*:)[^\s/@]*@/g;

/** Text with the password of every `scheme://user:password@host` in it masked. */
export function maskUrlCredentials(text: string): string {
  return text.includes('@') ? text.replace(USERINFO, `$1${REDACTED}@`) : text;
}
