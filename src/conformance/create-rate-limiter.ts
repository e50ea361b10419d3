/** Resolves when the next request may start: requests are spaced evenly, `perSecond` at most. */
export type RateLimiter = () => Promise<void>;

export function createRateLimiter(perSecond: number | undefined): RateLimiter {
  if (!perSecond) return () => Promise.resolve();
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
