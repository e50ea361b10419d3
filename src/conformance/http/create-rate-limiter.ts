/** Resolves when the next request may start: requests are spaced evenly, `perSecond` at most. */
export type RateLimiter = () => Promise<void>;

/** Undefined without a limit: an await per request that always resolves at once is not free. */
export function createRateLimiter(perSecond: number | undefined): RateLimiter | undefined {
  if (!perSecond) return undefined;
  const spacingMs = 1000 / perSecond;
  let nextSlot = 0;
  return () => {
    const now = performance.now();
    const slot = Math.max(now, nextSlot);
    nextSlot = slot + spacingMs;
    const wait = slot - now;
    return wait <= 0 ? Promise.resolve() : new Promise((resolve) => setTimeout(resolve, wait));
  };
}
