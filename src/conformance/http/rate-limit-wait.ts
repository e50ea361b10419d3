/** At most this many resends of one request that keeps getting 429. */
export const RATE_LIMIT_RESENDS = 6;

/** The longest wait a 429 may ask for: a target that wants more gets its 429 judged as the answer. */
export const MAX_RATE_LIMIT_WAIT_MS = 10_000;

/**
 * How long to wait before sending a request again after its `attempt`-th 429 (0 for the first), or undefined to
 * stop: the target's Retry-After (RFC 9110 §10.2.3: seconds, or an HTTP date) when it gives one, else a backoff
 * that doubles from 250 ms; never past MAX_RATE_LIMIT_WAIT_MS, nor after RATE_LIMIT_RESENDS resends.
 */
export function rateLimitWait(retryAfter: string | undefined, attempt: number, now = Date.now()): number | undefined {
  if (attempt >= RATE_LIMIT_RESENDS) return undefined;
  const asked = retryAfter === undefined ? undefined : askedMs(retryAfter.trim(), now);
  const wait = asked ?? 250 * 2 ** attempt;
  return wait <= MAX_RATE_LIMIT_WAIT_MS ? wait : undefined;
}

function askedMs(value: string, now: number): number | undefined {
  if (/^[0-9]{1,9}$/.test(value)) return Number(value) * 1000;
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}
