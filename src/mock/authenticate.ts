import { hash, timingSafeEqual } from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';
import type { AppError } from '../contract/app-error.js';
import { type KeyPlacement, placementWhere } from '../contract/key-placement.js';
import type { RawQuery } from './connection/read-request.js';
import { cookiePairs } from '../shared/cookie-pairs.js';
import { countField } from './count-field.js';
import { mockError } from './error-codes.js';

/** Where a request's credentials may stand: its headers (as Node gives them, and raw) and its query. */
export interface CredentialSource {
  readonly headers: IncomingHttpHeaders;
  readonly rawHeaders: readonly string[];
  readonly query: RawQuery;
}

/** Returns the 401 to answer, or undefined when the request carries a configured key where `key` puts it. */
export type Authenticator = (key: KeyPlacement, request: CredentialSource) => AppError | undefined;

const SCHEME = /^([^\s]+)(?:\s+(.*))?$/s;

/**
 * The configured keys, wherever the operation's security scheme puts them (seed, Authentication; RFC 6750 for
 * Bearer, RFC 7617 for Basic, where the key is the whole `user:password`; OpenAPI apiKey in a header, the query or a
 * cookie). A scheme name is case-insensitive (RFC 9110 §11.1), the key is exact. Keys are compared as SHA-256
 * digests with timingSafeEqual, against every configured key, so the time taken says nothing about how much of a
 * key was right or which key matched.
 */
export function createAuthenticator(apiKeys: readonly string[]): Authenticator {
  const digests = apiKeys.map(digest);
  const verdicts = new Map<string, boolean>();
  // Whole Authorization values already accepted: the same `Bearer <key>` comes on every request of a frontend.
  const accepted = new Set<string>();
  const matches = (token: string) => {
    let matched = verdicts.get(token);
    if (matched === undefined) {
      const presented = digest(token);
      matched = false;
      for (const key of digests) matched = timingSafeEqual(presented, key) || matched;
      if (verdicts.size >= MAX_VERDICTS) verdicts.clear();
      verdicts.set(token, matched);
    }
    return matched;
  };
  const fromAuthorization = (scheme: 'bearer' | 'basic', authorization: string | undefined) => {
    // Kept by scheme: `Bearer <key>` taken for a bearer operation is no Basic credential.
    const seen = `${scheme}:${authorization}`;
    if (authorization !== undefined && accepted.has(seen)) return undefined;
    const denied = authorizationDenied(scheme, authorization, matches);
    if (denied) return denied;
    if (accepted.size >= MAX_VERDICTS) accepted.clear();
    accepted.add(seen);
    return undefined;
  };
  return (key, request) => {
    if (key.scheme !== 'apiKey') {
      // Node keeps the first of several Authorization fields and drops the rest without a word; a proxy may keep
      // the last. Authorization is a single field (RFC 9110 §11.6.2), so two of them are refused, whichever holds
      // the key.
      if (countField(request.rawHeaders, 'authorization') > 1) return repeated('authorization', key);
      return fromAuthorization(key.scheme, request.headers.authorization);
    }
    const values = apiKeyValues(key, request);
    if (values.length === 0) return mockError('missing_api_key', `${placementWhere(key)} is missing: send ${howToSend(key)}`);
    // Which of two values a server reads is its own choice: the key must not depend on it.
    if (values.length > 1) return repeated(key.name, key);
    const token = (values[0] as string).trim();
    if (token === '') return mockError('empty_api_key', `${placementWhere(key)} holds no API key: send ${howToSend(key)}`);
    return matches(token) ? undefined : mockError('invalid_api_key');
  };
}

/**
 * OpenAPI 3 §4.8.30: `security` lists alternatives, and any one of them admits a request (an API key header OR a
 * bearer token). The refusal speaks of a credential the request did present (a wrong bearer token is
 * invalid_api_key, not a missing X-Api-Key); a request that presented none is told every place a key is taken.
 */
export function authenticateAny(
  authenticate: Authenticator,
  keys: readonly KeyPlacement[],
  request: CredentialSource,
): AppError | undefined {
  const refusals: AppError[] = [];
  for (const key of keys) {
    const denied = authenticate(key, request);
    if (denied === undefined) return undefined;
    refusals.push(denied);
  }
  const presented = refusals.find((denied) => !MISSING.has(denied.code));
  if (presented !== undefined || keys.length === 1) return presented ?? refusals[0];
  const first = refusals[0] as AppError;
  return mockError(first.code as 'missing_api_key', `no credentials were sent: send ${keys.map(howToSend).join(' or ')}`);
}

const MISSING = new Set(['missing_api_key', 'missing_authorization']);

function authorizationDenied(
  expected: 'bearer' | 'basic',
  authorization: string | undefined,
  matches: (token: string) => boolean,
): AppError | undefined {
  const send = expected === 'bearer' ? 'Authorization: Bearer <API_KEY>' : 'Authorization: Basic <base64 of API_KEY>';
  if (authorization === undefined || authorization.trim() === '') {
    return expected === 'bearer'
      ? mockError('missing_authorization')
      : mockError('missing_authorization', `the Authorization header is missing: send ${send}`);
  }
  const match = SCHEME.exec(authorization.trim());
  const scheme = match?.[1] ?? '';
  // Nothing of the header is repeated: a key sent without its scheme would be the "scheme" (and 'Basic …' a password).
  if (scheme.toLowerCase() !== expected) {
    return mockError(
      'unsupported_auth_scheme',
      match?.[2] === undefined
        ? `the Authorization header holds one word, not a scheme and a key: send ${send}`
        : `the Authorization header must use the ${expected === 'bearer' ? 'Bearer' : 'Basic'} scheme: send ${send}`,
    );
  }
  const token = (match?.[2] ?? '').trim();
  if (token === '') {
    return expected === 'bearer'
      ? mockError('empty_api_key')
      : mockError('empty_api_key', 'the Authorization header has the Basic scheme but no credentials');
  }
  // RFC 7617 §2: the credentials are the base64 of user-id:password, the whole of which is the key here.
  return matches(expected === 'basic' ? Buffer.from(token, 'base64').toString('utf8') : token)
    ? undefined
    : mockError('invalid_api_key');
}

function apiKeyValues(key: KeyPlacement & { scheme: 'apiKey' }, request: CredentialSource): string[] {
  if (key.in === 'query') {
    const value = request.query[key.name];
    return value === undefined ? [] : typeof value === 'string' ? [value] : value;
  }
  if (key.in === 'header') {
    const name = key.name.toLowerCase();
    const value = request.headers[name];
    if (value === undefined) return [];
    // Node joins a repeated field it does not know with ', ': each field counts.
    return countField(request.rawHeaders, name) > 1 ? ['', ''] : [String(value)];
  }
  return [cookiePairs(request.headers.cookie)[key.name] ?? []].flat();
}

function repeated(name: string, key: KeyPlacement): AppError {
  const what = placementWhere(key).replace(/^the /, '');
  return mockError(
    name === 'authorization' ? 'repeated_authorization' : 'repeated_api_key',
    name === 'authorization' && key.scheme === 'bearer'
      ? undefined
      : `the request carries more than one ${what}: send one, ${howToSend(key)}`,
  );
}

function howToSend(key: KeyPlacement): string {
  if (key.scheme === 'bearer') return 'Authorization: Bearer <API_KEY>';
  if (key.scheme === 'basic') return 'Authorization: Basic <base64 of API_KEY>';
  if (key.in === 'query') return `?${key.name}=<API_KEY>`;
  return key.in === 'header' ? `${key.name}: <API_KEY>` : `Cookie: ${key.name}=<API_KEY>`;
}

// A frontend sends the same key on every request, and hashing it each time was a twentieth of a list request's
// CPU. A Map finds an entry by the string's hash, so it says no more about how much of a key was right than the
// digests do. Bounded: random keys only make it start over.
const MAX_VERDICTS = 256;

// The one-shot hash: no Hash object per request.
function digest(key: string): Buffer {
  return hash('sha256', key, 'buffer');
}
