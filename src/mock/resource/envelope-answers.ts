import type { Operation } from '../../contract/operation.js';
import { envelopeMembers, type RecordPointer, schemaAt } from '../../contract/resources/envelope.js';
import { type RawSchema, schemaTypes } from '../../contract/resources/object-shape.js';
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
 * The members a list answer requires beside its records (`"meta":{"total":0,"next_cursor":null}` of
 * `{ data: [...], meta }`), with the next page's cursor where the contract carries it: a page without one says so
 * by null where its schema allows null, else by leaving the member out. Undefined when the envelope requires none.
 */
export function listMembers(
  operation: Operation,
  pointer: RecordPointer,
  next: NextCursor | undefined,
): ((cursor: string | undefined) => string) | undefined {
  const around = envelopeMembers(answerSchema(operation), pointer.slice(0, 1))[0] ?? {};
  if (Object.keys(around).length === 0) return undefined;
  const at = next?.in === 'body' ? next.pointer : undefined;
  if (at === undefined) {
    const text = membersText(around, '');
    return () => (text === '' ? '' : `,${text}`);
  }
  const leaf = schemaAt(answerSchema(operation), at) as (RawSchema & { nullable?: boolean }) | undefined;
  const nullable = leaf?.nullable === true || schemaTypes(leaf).includes('null');
  return (cursor) => {
    const members = structuredClone(around);
    placeCursor(members, at, cursor === undefined ? (nullable ? null : undefined) : cursor);
    const text = membersText(members, '');
    return text === '' ? '' : `,${text}`;
  };
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
