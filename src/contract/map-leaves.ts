import { setOwn } from './set-own.js';

/**
 * Applies `leaf` to every value that is not an array or an object. Containers are copied only on the way to a
 * leaf that changed, so a value with nothing to change comes back as the very same object, at the cost of one
 * walk and no allocation: what a validation or a request per step can afford.
 */
export function mapLeaves(value: unknown, leaf: (value: unknown) => unknown): unknown {
  if (value === null || typeof value !== 'object') return leaf(value);
  if (Array.isArray(value)) {
    let copy: unknown[] | undefined;
    for (let i = 0; i < value.length; i++) {
      const item = mapLeaves(value[i], leaf);
      if (item === value[i]) continue;
      copy ??= value.slice();
      copy[i] = item;
    }
    return copy ?? value;
  }
  let copy: Record<string, unknown> | undefined;
  for (const key of Object.keys(value)) {
    const original = (value as Record<string, unknown>)[key];
    const item = mapLeaves(original, leaf);
    if (item === original) continue;
    copy ??= { ...(value as Record<string, unknown>) };
    setOwn(copy, key, item);
  }
  return copy ?? value;
}
