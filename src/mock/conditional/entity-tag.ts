import { createHash } from 'node:crypto';

/**
 * The strong entity tag of a stored record (RFC 9110 §8.8.3): a quoted hash of its JSON, so it changes whenever
 * the record does, and is the same for every answer that represents it (a read, the answer of a write), as the
 * precondition of a later write compares it (if-match.ts).
 */
export function entityTag(json: string): string {
  return `"${createHash('sha1').update(json).digest('base64url').slice(0, 27)}"`;
}

/**
 * Whether a list of entity tags (If-Match, If-None-Match) names `tag`, or is `*` (RFC 9110 §13.1.1, §13.1.2).
 * `weak`: If-None-Match's weak comparison, which takes W/"x" as "x"; If-Match's strong one never matches a weak tag.
 */
export function namesTag(list: string, tag: string, weak: boolean): boolean {
  if (list.trim() === '*') return true;
  return list.split(',').some((one) => {
    const given = one.trim();
    return (weak ? given.replace(/^W\//, '') : given) === tag;
  });
}
