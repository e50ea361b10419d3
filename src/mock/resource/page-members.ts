import type { JsonSchema, Operation } from '../../contract/operation.js';
import { answerSchema } from '../../contract/resources/representation.js';
import { objectShape } from '../../contract/resources/object-shape.js';
import { sampleValue } from '../../contract/sample-value.js';

// A page's member that counts what the query matches (`{ items, total }`), by the names APIs give it.
const TOTAL = /^(total|count|total_?count|total_?items|total_?results|total_?size)$/i;

/** How to make the members a list's page object requires beside its records and its next cursor. */
export interface PageMembers {
  /** The member that counts the records the query matches, if the page requires one. */
  readonly total: string | undefined;
  /** Every other required member, a valid sample of its schema, as JSON members (`,"page":1`). */
  readonly fixed: string;
}

/**
 * The members a list's answer requires beside its records (`items`) and its next cursor (`next`): a count of what
 * the query matches where one is named like it (`total`), else a valid sample of the member's schema. Read from the
 * page object that wraps the records directly (a one-member pointer); none for a bare array.
 */
export function pageMembers(list: Operation, pointer: readonly string[], cursor: readonly string[] | undefined): PageMembers {
  const shape = pointer.length === 1 ? objectShape(answerSchema(list)) : undefined;
  if (!shape) return { total: undefined, fixed: '' };
  const own = new Set([pointer[0], cursor?.[0]]);
  const wanted = [...shape.required].filter((name) => !own.has(name));
  const total = wanted.find((name) => TOTAL.test(name) && [shape.properties[name]?.type].flat().includes('integer'));
  const fixed = wanted
    .filter((name) => name !== total)
    .map((name) => `,${JSON.stringify(name)}:${JSON.stringify(sampleValue(shape.properties[name] as JsonSchema))}`)
    .join('');
  return { total, fixed };
}
