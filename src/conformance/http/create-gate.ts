/** A semaphore: `enter()` resolves with the function that leaves, once one of `slots` is free; first come, first served. */
export type Gate = () => Promise<() => void>;

export function createGate(slots: number): Gate {
  let free = slots;
  const waiting: (() => void)[] = [];
  const leave = () => {
    const next = waiting.shift();
    if (next) next();
    else free++;
  };
  return () => {
    const ticket = () => {
      let left = false;
      return () => {
        if (left) return;
        left = true;
        leave();
      };
    };
    if (free > 0) {
      free--;
      return Promise.resolve(ticket());
    }
    return new Promise((resolve) => waiting.push(() => resolve(ticket())));
  };
}
