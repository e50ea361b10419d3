import type { RunResult } from '../run-result.js';

/**
 * A --target without the API's base path (http://host instead of http://host/v1) makes nearly every request a
 * 404 the contract does not document, which reads like a broken target. When most answers are such 404s, say
 * what is likely wrong in one line.
 */
export function basePathHint(result: RunResult): string | undefined {
  const exchanges = result.scenarios.flatMap((s) => s.exchanges).filter((e) => e.status !== undefined);
  const stray = exchanges.filter((e) => e.status === 404 && e.documentedAs === undefined).length;
  if (stray === 0 || stray * 2 < exchanges.length) return undefined;
  return `Hint: ${stray} of ${exchanges.length} requests got a 404 their operation does not document: does --target include the API's base path (e.g. http://host/v1)?`;
}
