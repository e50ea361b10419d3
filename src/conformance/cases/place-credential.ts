import { randomBytes } from 'node:crypto';
import type { KeyPlacement } from '../../contract/key-placement.js';
import type { Operation } from '../../contract/operation.js';
import type { OutgoingRequest, PlacedCredential } from '../http/create-http-client.js';
import type { AuthChoice } from './scenario.js';

/**
 * Where the key goes for an operation whose schemes the runner cannot place (mutualTLS, another HTTP scheme, two
 * schemes at once): `Authorization: Bearer`, the most common way (RFC 6750 §2.1). No scheme name: nothing in the
 * contract says so.
 */
export const UNPLACED: KeyPlacement = { scheme: 'bearer', schemeName: '' };

/** Where a request to the operation carries its credential: its scheme's place, else Authorization: Bearer. */
export function credentialPlacement(operation: Operation): KeyPlacement {
  return operation.key ?? UNPLACED;
}

/**
 * The credential a step sends, where the operation's security scheme puts it (key-placement.ts). An operation that
 * needs none gets none with the run's key; what a case sends to see it refused still goes where a key would.
 */
export function placeCredential(operation: Operation, auth: AuthChoice, token: string | undefined): PlacedCredential | undefined {
  if (auth === 'default' && operation.auth === 'none') return undefined;
  const placement = credentialPlacement(operation);
  const none = { placement, sent: undefined, shown: undefined, runKey: false };
  if (auth === 'none') return none;
  if (typeof auth === 'object' && 'raw' in auth) return { ...none, sent: auth.raw, shown: auth.raw, placement: UNPLACED };
  if (typeof auth === 'object' && 'fromKey' in auth) {
    return token === undefined ? none : { ...none, placement: UNPLACED, sent: auth.fromKey(token), shown: auth.shown };
  }
  if (auth === 'default') {
    return token === undefined
      ? none
      : { placement, sent: placed(placement, token), shown: placed(placement, REDACTED_KEY, true), runKey: true };
  }
  // A well-formed key no target can have issued: random on every run.
  const key = auth === 'invalid' ? { value: `conformance-invalid-${randomBytes(12).toString('hex')}` } : auth;
  if ('value' in key) return { ...none, sent: placed(placement, key.value), shown: placed(placement, key.value) };
  if (token === undefined) return none;
  return { ...none, sent: placed(placement, key.alter(token)), shown: placed(placement, key.shown, true) };
}

const REDACTED_KEY = '***';

// `shown` is a description (`<key minus its last character>`, ***), never base64-encoded.
function placed(placement: KeyPlacement, key: string, shown = false): string {
  if (placement.scheme === 'bearer') return `Bearer ${key}`;
  if (placement.scheme === 'basic') return `Basic ${shown ? key : Buffer.from(key, 'utf8').toString('base64')}`;
  return key;
}

/** Where a placed credential goes in the request: a header (lower-case name) or the query's last parameter. */
export function credentialParts(credential: PlacedCredential | undefined): {
  readonly headers: Readonly<Record<string, string>>;
  readonly query: readonly [string, string] | undefined;
} {
  const sent = credential?.sent;
  if (credential === undefined || sent === undefined) return { headers: {}, query: undefined };
  const { placement } = credential;
  if (placement.scheme !== 'apiKey') return { headers: { authorization: sent }, query: undefined };
  if (placement.in === 'query') return { headers: {}, query: [placement.name, sent] };
  if (placement.in === 'cookie') return { headers: { cookie: `${placement.name}=${sent}` }, query: undefined };
  return { headers: { [placement.name.toLowerCase()]: sent }, query: undefined };
}

/**
 * A request without a body that carries the run's key where the operation's scheme puts it, outside any case: the
 * probe's HEAD to the base URL, a clean-up DELETE. No operation: none needs a key.
 */
export function keyedRequest(
  method: string,
  url: string,
  operation: Operation | undefined,
  token: string | undefined,
): OutgoingRequest {
  const credential = operation === undefined ? undefined : placeCredential(operation, 'default', token);
  const { headers, query } = credentialParts(credential);
  const search = query === undefined ? '' : `${url.includes('?') ? '&' : '?'}${new URLSearchParams([[...query]])}`;
  return {
    method,
    url: `${url}${search}`,
    headers: { ...headers },
    body: undefined,
    ...(credential === undefined ? {} : { credential }),
  };
}
