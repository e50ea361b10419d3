import type { JsonSchema } from '../../contract/operation.js';
import { namingField } from '../../contract/resources/resource-roles.js';
import type { Random } from './generate/create-random.js';
import { RUN_MARK } from './generate/sample-value.js';

/**
 * Marks the runner writes into the names of resources it creates, to find them again in what the target answers:
 * texts no server makes up and no other request sends.
 * - `conformance refused k3v9x0q2mz`: a body the runner expects to be refused. A listed resource that carries it was
 *   stored from a refused request (refused-not-stored).
 * - `conformance once 1a2b3c4d k3v9x0q2mz`: the run's id and a text of its own, sent in exactly one create of one
 *   run. Two listed resources that carry it were stored from that one request (stored-once).
 */
export const REFUSED_MARK = 'conformance refused ';
export const ONCE_MARK = 'conformance once ';

// No letter case to fold: a server that changes case changes the name, which other checks see.
const MARK_CHARACTERS = '0123456789abcdefghijklmnopqrstuvwxyz';
const REFUSED_MARKS = /conformance refused [0-9a-z]{10}/g;
const ONCE_MARKS = /conformance once [0-9a-z]{8} [0-9a-z]{10}/g;

/** A fresh refused mark. */
export function refusedMark(random: Random): string {
  return `${REFUSED_MARK}${random.text(10, MARK_CHARACTERS)}`;
}

/** The refused marks a request body carries (its text, parsed or not). */
export function refusedMarksIn(text: string | undefined): string[] {
  return text === undefined || !text.includes(REFUSED_MARK) ? [] : (text.match(REFUSED_MARKS) ?? []);
}

/**
 * The fields that name a resource with a fresh once mark, for a body of `schema`; undefined when it has no naming
 * field. Each call draws a new mark: send each in one create only.
 */
export function onceMarked(schema: JsonSchema | undefined, random: Random): Record<string, string> | undefined {
  const named = namingField(schema);
  return named === undefined ? undefined : { [named]: `${ONCE_MARK}${RUN_MARK} ${random.text(10, MARK_CHARACTERS)}` };
}

/** The once marks in one resource's text values (a field that repeats the name counts once). */
export function onceMarksIn(resource: unknown): ReadonlySet<string> {
  if (resource === null || typeof resource !== 'object') return NO_MARKS;
  // Every item of every list a run reads is looked through: a set is made only for one that carries a mark.
  let marks: Set<string> | undefined;
  for (const value of Object.values(resource)) {
    if (typeof value !== 'string' || !value.includes(ONCE_MARK)) continue;
    marks ??= new Set<string>();
    for (const mark of value.match(ONCE_MARKS) ?? []) marks.add(mark);
  }
  return marks ?? NO_MARKS;
}

const NO_MARKS: ReadonlySet<string> = new Set();
