import type { Operation } from '../../contract/operation.js';
import { envelopeMembers, type RecordPointer, schemaAt } from '../../contract/resources/envelope.js';
import { objectShape, type RawSchema, schemaTypes } from '../../contract/resources/object-shape.js';
import { answerSchema } from '../../contract/resources/representation.js';
import type { NextCursor } from '../../contract/resources/resource.js';
import { setOwn } from '../../contract/set-own.js';

/** The JSON text put around a stored record to answer it as the contract's envelope (`{"data":` and `}`). */
export interface RecordWrapper {
  readonly open: string;
  readonly close: string;
}

/**
 * docs/reference/resources.md rule 10: an answer that carries its record at `pointer` is the record inside its
 * envelope, each level with the members its schema requires beside it (`meta`) as valid samples. Read once an
 * operation, so a request costs two string joins.
 */
export function recordWrapper(operation: Operation, pointer: RecordPointer): RecordWrapper {
  const levels = envelopeMembers(answerSchema(operation), pointer);
  const open = pointer
    .map((name, level) => `{${membersText(levels[level] as Record<string, unknown>, ',')}${JSON.stringify(name)}:`)
    .join('');
  return { open, close: '}'.repeat(pointer.length) };
}

/**
 * The members a list answer requires beside its records (`"meta":{"total":3,"next_cursor":null}` of
 * `{ data: [...], meta }`, `"total":3` of `{ items: [...], total }`), with the next page's cursor where the contract
 * carries it: a page without one says so by null where its schema allows null, else by leaving the member out. A
 * member named as a count (`total`, `count`, `total_count`, ...) of integers, beside the records or in a member beside
 * them, holds the number of records the query matches (`total()`, read only then). Undefined when the envelope
 * requires none.
 */
export function listMembers(
  operation: Operation,
  pointer: RecordPointer,
  next: NextCursor | undefined,
): ((cursor: string | undefined, total: () => number) => string) | undefined {
  const schema = answerSchema(operation);
  const around = envelopeMembers(schema, pointer.slice(0, 1))[0] ?? {};
  if (Object.keys(around).length === 0) return undefined;
  const at = next?.in === 'body' ? next.pointer : undefined;
  const counts = countPaths(schema, around);
  if (at === undefined && counts.length === 0) {
    const text = membersText(around, '');
    return () => (text === '' ? '' : `,${text}`);
  }
  const leaf = at === undefined ? undefined : (schemaAt(schema, at) as (RawSchema & { nullable?: boolean }) | undefined);
  const nullable = leaf?.nullable === true || schemaTypes(leaf).includes('null');
  return (cursor, total) => {
    const members = structuredClone(around);
    if (at !== undefined) placeCursor(members, at, cursor === undefined ? (nullable ? null : undefined) : cursor);
    if (counts.length > 0) {
      const matched = total();
      for (const path of counts) placeCursor(members, path, matched);
    }
    const text = membersText(members, '');
    return text === '' ? '' : `,${text}`;
  };
}

// A member that counts what the query matches, by the names APIs give it.
const COUNT = /^(total|count|total_?count|total_?items|total_?results|total_?size)$/i;

// The required count members of integers among `around` and one level inside them (`total`, `meta.total`).
function countPaths(schema: RawSchema | undefined, around: Record<string, unknown>): string[][] {
  const paths: string[][] = [];
  const shape = objectShape(schema);
  for (const name of Object.keys(around)) {
    const property = shape?.properties[name];
    if (COUNT.test(name) && schemaTypes(property).includes('integer')) paths.push([name]);
    const inner = around[name];
    if (inner === null || typeof inner !== 'object' || Array.isArray(inner)) continue;
    const innerShape = objectShape(property);
    for (const member of Object.keys(inner)) {
      if (COUNT.test(member) && schemaTypes(innerShape?.properties[member]).includes('integer')) paths.push([name, member]);
    }
  }
  return paths;
}

function placeCursor(members: Record<string, unknown>, at: readonly string[], value: unknown): void {
  let holder = members;
  for (const name of at.slice(0, -1)) {
    const inner = holder[name];
    if (inner === null || typeof inner !== 'object' || Array.isArray(inner)) {
      if (value === undefined) return;
      setOwn(holder, name, {});
    }
    holder = holder[name] as Record<string, unknown>;
  }
  const last = at.at(-1) as string;
  if (value === undefined) delete holder[last];
  else setOwn(holder, last, value);
}

// `{"a":1,"b":2}` as `"a":1,"b":2` followed by `after`, or nothing for no members.
function membersText(members: Record<string, unknown>, after: string): string {
  const text = JSON.stringify(members).slice(1, -1);
  return text === '' ? '' : `${text}${after}`;
}
