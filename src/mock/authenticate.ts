import { hash, timingSafeEqual } from 'node:crypto';
import type { AppError } from '../contract/app-error.js';
import { mockError } from './error-codes.js';

/** Returns the 401 to answer, or undefined when the request carries a configured key. */
export type Authenticator = (authorization: string | undefined) => AppError | undefined;

const SCHEME = /^([^\s]+)(?:\s+(.*))?$/s;

/**
 * Bearer keys (seed, Authentication; RFC 6750). The scheme name is case-insensitive (RFC 9110 §11.1), the key
 * is exact. Keys are compared as SHA-256 digests with timingSafeEqual, against every configured key, so the
 * time taken says nothing about how much of a key was right or which key matched.
 */
export function createAuthenticator(apiKeys: readonly string[]): Authenticator {
  const digests = apiKeys.map(digest);
  const verdicts = new Map<string, boolean>();
  // Whole header values already accepted: the same `Bearer <key>` comes on every request of a frontend.
  const accepted = new Set<string>();
  return (authorization) => {
    if (authorization !== undefined && accepted.has(authorization)) return undefined;
    if (authorization === undefined || authorization.trim() === '') return mockError('missing_authorization');
    const match = SCHEME.exec(authorization.trim());
    const scheme = match?.[1] ?? '';
    // Nothing of the header is repeated: a key sent without its scheme would be the "scheme" (and 'Basic …' a password).
    if (scheme.toLowerCase() !== 'bearer') {
      return mockError(
        'unsupported_auth_scheme',
        match?.[2] === undefined
          ? 'the Authorization header holds one word, not a scheme and a key: send Authorization: Bearer <API_KEY>'
          : 'the Authorization header must use the Bearer scheme: send Authorization: Bearer <API_KEY>',
      );
    }
    const token = (match?.[2] ?? '').trim();
    if (token === '') return mockError('empty_api_key');
    let matched = verdicts.get(token);
    if (matched === undefined) {
      const presented = digest(token);
      matched = false;
      for (const key of digests) matched = timingSafeEqual(presented, key) || matched;
      if (verdicts.size >= MAX_VERDICTS) verdicts.clear();
      verdicts.set(token, matched);
    }
    if (!matched) return mockError('invalid_api_key');
    if (accepted.size >= MAX_VERDICTS) accepted.clear();
    accepted.add(authorization);
    return undefined;
  };
}

// A frontend sends the same key on every request, and hashing it each time was a twentieth of a list request's
// CPU. A Map finds an entry by the string's hash, so it says no more about how much of a key was right than the
// digests do. Bounded: random keys only make it start over.
const MAX_VERDICTS = 256;

// The one-shot hash: no Hash object per request.
function digest(key: string): Buffer {
  return hash('sha256', key, 'buffer');
}
