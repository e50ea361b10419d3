import type { Operation } from './operation.js';

/**
 * The response header of a list's success that says how many records the query matches in all, by the names APIs
 * give it: `X-Total-Count`, `X-Total` or `Total-Count`, in any letter case (docs/reference/resources.md, Count
 * headers). Only a whole name counts: `X-Total-Pages` or `X-Rate-Limit-Total` is another number. Undefined where
 * the list documents none: the header is then no promise.
 */
export function countHeader(operation: Operation): string | undefined {
  for (const response of operation.responses) {
    if (!response.code.startsWith('2')) continue;
    const header = response.headers.find((h) => COUNT_NAMES.has(h.name));
    if (header) return header.name;
  }
  return undefined;
}

const COUNT_NAMES = new Set(['x-total-count', 'x-total', 'total-count']);
