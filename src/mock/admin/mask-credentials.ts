import type { IncomingHttpHeaders } from 'node:http';
import type { KeyPlacement } from '../../contract/key-placement.js';
import { REDACTED } from '../../shared/create-redactor.js';
import { isCredentialName, maskAuthorization, maskHeader } from '../../shared/mask-credentials.js';
import { SESSION_HEADER } from '../session-stores.js';

/**
 * Credentials of a request as the journal and the log show them: the names stay (they say how the app
 * authenticated), the values go, by the shared rule (src/shared/mask-credentials.ts). Cookies of every app on
 * localhost reach the mock with each request.
 */

// Named like a credential, but the mock's own control: its value is shown as the entry's session anyway.
const NOT_SECRET: ReadonlySet<string> = new Set([SESSION_HEADER]);

/**
 * The value to show for a header (lower-case name, as Node gives it), or undefined to show it as sent (keys still
 * redacted). Authorization keeps only its scheme even with `keepSecrets` (--journal-secrets), as it always has: it
 * holds the mock's own keys.
 */
export function maskJournalHeader(name: string, value: string, keepSecrets: boolean, key?: KeyPlacement): string | undefined {
  if (name === 'authorization') return maskAuthorization(value);
  // Where the operation's apiKey scheme puts the key: the mock's own keys too, whatever the name says.
  if (key?.scheme === 'apiKey' && key.in === 'header' && name === key.name.toLowerCase()) return REDACTED;
  if (key?.scheme === 'apiKey' && key.in === 'cookie' && name === 'cookie' && keepSecrets)
    return maskCookieNamed(value, key.name);
  if (keepSecrets || NOT_SECRET.has(name)) return undefined;
  const masked = maskHeader(name, value);
  return masked === value ? undefined : masked;
}

/**
 * The values of a request's credentials, to be found wherever else the request repeats them (its query, body or
 * session name): the Authorization and Proxy-Authorization credentials, with a Basic one decoded to its user and
 * password (RFC 7617 §2), each cookie's value, and every credential-named header. With `keepSecrets` only
 * Authorization's, which the journal never shows.
 */
export function requestSecrets(headers: IncomingHttpHeaders, keepSecrets: boolean): string[] {
  const secrets: string[] = [];
  for (const name in headers) {
    const value = headers[name];
    if (value === undefined) continue;
    for (const text of typeof value === 'string' ? [value] : value) {
      if (name === 'authorization' || (!keepSecrets && name === 'proxy-authorization')) secrets.push(...credentialOf(text));
      else if (keepSecrets || NOT_SECRET.has(name)) break;
      else if (name === 'cookie') secrets.push(...cookieValues(text));
      else if (isCredentialName(name)) secrets.push(text.trim());
    }
  }
  return secrets;
}

// `Bearer <token>`, `Basic <base64 of user:password>`, or a bare token (sent without its scheme).
function credentialOf(value: string): string[] {
  const text = value.trim();
  const space = text.search(/\s/);
  const token = space === -1 ? text : text.slice(space).trim();
  if (space === -1 || text.slice(0, space).toLowerCase() !== 'basic') return [token];
  const decoded = Buffer.from(token, 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  return colon === -1 ? [token, decoded] : [token, decoded, decoded.slice(0, colon), decoded.slice(colon + 1)];
}

function cookieValues(value: string): string[] {
  return value.split(';').map((pair) => pair.slice(pair.indexOf('=') + 1).trim());
}

/**
 * A request target with the values of credential-named query parameters, of the one the operation's apiKey scheme
 * names (`key`), and any userinfo masked. With `keyOnly` (--journal-secrets), only the scheme's own parameter.
 */
export function maskTarget(target: string, key?: KeyPlacement, keyOnly = false): string {
  const q = target.indexOf('?');
  const keyName = key?.scheme === 'apiKey' && key.in === 'query' ? key.name : undefined;
  if (keyOnly && (q === -1 || keyName === undefined)) return target;
  const path = keyOnly ? target.slice(0, q) : maskUserinfo(q === -1 ? target : target.slice(0, q));
  const masks = (name: string) => name === keyName || (!keyOnly && isCredentialName(name));
  return q === -1 ? path : `${path}?${maskQuery(target.slice(q + 1), masks)}`;
}

/** `api_key=abc&limit=2` → `api_key=***&limit=2`. */
export function maskQuery(query: string, masks: (name: string) => boolean = isCredentialName): string {
  if (query === '') return query;
  return query
    .split('&')
    .map((pair) => {
      const eq = pair.indexOf('=');
      return eq !== -1 && masks(decodedName(pair.slice(0, eq))) ? `${pair.slice(0, eq)}=${REDACTED}` : pair;
    })
    .join('&');
}

/**
 * The values a request carried where the operation's apiKey scheme puts the key (its header, query parameter or
 * cookie), to be found wherever else the request repeats them, whatever the place is named.
 */
export function placedKeyValues(key: KeyPlacement | undefined, headers: IncomingHttpHeaders, target: string): string[] {
  if (key?.scheme !== 'apiKey') return [];
  if (key.in === 'header') {
    const value = headers[key.name.toLowerCase()];
    return value === undefined ? [] : [value].flat().map((one) => one.trim());
  }
  if (key.in === 'cookie') {
    return (headers.cookie ?? '')
      .split(';')
      .filter((pair) => pair.slice(0, pair.indexOf('=')).trim() === key.name)
      .map((pair) => pair.slice(pair.indexOf('=') + 1).trim());
  }
  const q = target.indexOf('?');
  return q === -1 ? [] : new URLSearchParams(target.slice(q + 1)).getAll(key.name);
}

// `theme=dark; sid=abc` with the cookie `sid` masked: --journal-secrets shows the others.
function maskCookieNamed(value: string, name: string): string {
  return value
    .split(';')
    .map((pair) =>
      pair.slice(0, pair.indexOf('=')).trim() === name ? `${pair.slice(0, pair.indexOf('=') + 1)}${REDACTED}` : pair,
    )
    .join(';');
}

// ?api%5Fkey= is ?api_key= (RFC 3986 §2.1), and + is a space in a form-encoded query.
function decodedName(name: string): string {
  try {
    return decodeURIComponent(name.replaceAll('+', ' '));
  } catch {
    return name;
  }
}

// http://user:password@host/… (absolute-form): the userinfo is a credential (RFC 9110 §4.2.4).
function maskUserinfo(path: string): string {
  const scheme = path.indexOf('://');
  if (scheme === -1 || path.charCodeAt(0) === SLASH) return path;
  const slash = path.indexOf('/', scheme + 3);
  const at = path.lastIndexOf('@', slash === -1 ? path.length : slash);
  return at < scheme ? path : `${path.slice(0, scheme + 3)}${REDACTED}${path.slice(at)}`;
}

const SLASH = 47;
