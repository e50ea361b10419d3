import type { JsonSchema } from '../contract/operation.js';
import { MARK_CHARACTERS, type Random } from './generate/create-random.js';
import { RUN_MARK } from './generate/sample-value.js';

/**
 * How the one create of a case that looks for doubles names its resource (`conformance once 1a2b3c4d k3v9x0q2mz`):
 * the run's id and a text of its own, sent in exactly one create of one run. Two listed resources that carry it were
 * stored from that one request.
 */
export const ONCE_MARK = 'conformance once ';

const MARKS = /conformance once [0-9a-z]{8} [0-9a-z]{10}/g;

/** The marks in one resource's text values (a field that repeats the name counts once). */
export function onceMarksIn(resource: unknown): Set<string> {
  const marks = new Set<string>();
  if (resource === null || typeof resource !== 'object') return marks;
  for (const value of Object.values(resource)) {
    if (typeof value === 'string' && value.includes(ONCE_MARK)) for (const mark of value.match(MARKS) ?? []) marks.add(mark);
  }
  return marks;
}

/**
 * The fields that name a resource with a fresh mark (its first required text field, `name`), for a body of
 * `schema`; undefined when it has no such field. Each call draws a new mark: send each in one create only.
 */
export function onceMarked(schema: JsonSchema | undefined, random: Random): Record<string, string> | undefined {
  const named = (schema?.required ?? []).find((name) => schema?.properties?.[name]?.type === 'string');
  return named === undefined ? undefined : { [named]: `${ONCE_MARK}${RUN_MARK} ${random.text(10, MARK_CHARACTERS)}` };
}
