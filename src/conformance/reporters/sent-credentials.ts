import { describeCredential } from '../http/describe-credential.js';
import { REDACTED_BEARER, type SentRequest } from '../http/exchange.js';

/**
 * What a request sent as credentials, when that is what sets it apart: cases that send no key or an altered one
 * all expect the same refusal, so "expected status 401, got 404" alone would read the same for each of them.
 * Undefined for a request with the run's own key (the usual case: nothing to say). The value shown is the one
 * already recorded, masked (place-credential.ts): `Basic <key>`, `X-API-Key: <key minus its last character>`,
 * never the key.
 */
export function sentCredentials(request: SentRequest): string | undefined {
  const { label, carried, runKey } = describeCredential(request);
  if (runKey || (request.credential === undefined && request.headers.authorization === REDACTED_BEARER)) return undefined;
  return carried === undefined ? `sent no ${label}` : `sent ${carried}`;
}
