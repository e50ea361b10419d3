import type { ScenarioResult } from '../run-result.js';

/**
 * A --target without the API's base path (http://host instead of http://host/v1) makes nearly every request a
 * 404 the contract does not document, which reads like a broken target. When most answers are such 404s, say
 * what is likely wrong in one line; a target that already ends in a base path gets no such advice.
 */
export function basePathHint(
  scenarios: readonly ScenarioResult[],
  target: string,
  basePaths: readonly string[],
): string | undefined {
  const exchanges = scenarios.flatMap((s) => s.exchanges).filter((e) => e.status !== undefined);
  const stray = exchanges.filter((e) => e.status === 404 && e.documentedAs === undefined).length;
  if (stray === 0 || stray * 2 < exchanges.length) return undefined;
  return `${stray} of ${exchanges.length} requests got a 404 their operation does not document: ${wrongBase(target, basePaths)}`;
}

/**
 * What to check when the target serves none of the contract's paths. A --target whose last segment is another
 * version (/v2 where the contract says /v1) gets that segment replaced, not the base path added after it
 * (/v2/v1 is never right); any other path (/api) gets the base path added (/api/v1: an API mounted under /api).
 */
export function wrongBase(target: string, basePaths: readonly string[]): string {
  const url = new URL(target);
  const path = url.pathname.replace(/\/+$/, '');
  const example = basePaths[0] ?? '/v1';
  if (basePaths.some((base) => path.endsWith(base))) return `is --target ${target} the API's base URL?`;
  const mount = VERSION_SEGMENT.test(path) && VERSION_SEGMENT.test(example) ? path.replace(VERSION_SEGMENT, '') : path;
  return `does --target include the API's base path (e.g. ${url.origin}${mount}${example})?`;
}

// A last path segment that names a version: /v1, /v2beta, /2.0.
const VERSION_SEGMENT = /\/v?\d+(\.\d+)*[a-z]*$/i;
