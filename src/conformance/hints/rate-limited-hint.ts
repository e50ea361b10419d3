/** What the target's 429s cost the run: each request refused so was sent again after the wait it asked for. */
export interface RateLimited {
  resends: number;
  waitedMs: number;
}

/** Rate limits are left open by the contract: a target's 429 is no finding, but the run says what it took. */
export function rateLimitedHint({ resends, waitedMs }: RateLimited): string | undefined {
  if (resends === 0) return undefined;
  return `The target rate-limited the run: ${resends} request${resends === 1 ? ' was' : 's were'} sent again after a 429 Too Many Requests (${(waitedMs / 1000).toFixed(1)} s of waits in all); --rate-limit <requests per second> keeps under its limit.`;
}
