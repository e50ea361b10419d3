import { compileSchema } from '../../contract/compile-schema.js';
import type { JsonSchema } from '../../contract/operation.js';
import { type FreshValue, freshIds } from '../resource/fresh-values.js';

// A way of making ids is taken when this many of its ids in a row fit the schema.
const TRIES = 16;

const makers = new WeakMap<object, FreshValue | undefined>();

/**
 * How a store makes the text ids the server assigns (docs/reference/resources.md, Ids): undefined to count up as
 * text ("1", "2"), the cheapest, where the id schema takes such ids; else the first way of making fresh ones whose
 * ids the schema takes (the example's shape, a uuid: fresh-values.ts), so that the record and its item path stay
 * valid against a `pattern`, a `format` or a length. Worked out once an id schema.
 */
export function textIdMaker(schema: JsonSchema): FreshValue | undefined {
  if (makers.has(schema)) return makers.get(schema);
  const valid = compileSchema(schema as object, 'id');
  const fits = (make: FreshValue) => Array.from({ length: TRIES }, make).every((id) => valid(id).length === 0);
  const counted = fits(() => '1') && valid(String(Number.MAX_SAFE_INTEGER)).length === 0;
  const maker = counted ? undefined : freshIds(schema, schema.example ?? schema.examples?.[0]).find(fits);
  makers.set(schema, maker);
  return maker;
}
