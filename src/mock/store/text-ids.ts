import { compileSchema } from '../../contract/compile-schema.js';
import type { JsonSchema } from '../../contract/operation.js';
import { type FreshValue, freshIds } from '../resource/fresh-values.js';

// A way of making ids is taken when this many of its ids in a row fit the schema.
const TRIES = 16;

const makers = new WeakMap<object, FreshValue | undefined>();

/**
 * How a store makes the text ids the server assigns (docs/reference/resources.md, Ids): in the example's shape
 * where the id schema gives an example (`cus_8fk2m1` gives `cus_` and new characters: fresh-values.ts), as a
 * create nothing reads back makes them; else undefined, to count up as text ("1", "2"), the cheapest, where the
 * schema takes such ids; else a uuid. Each way is taken only when its ids fit the schema (a `pattern`, a `format`,
 * a length), so that the record and its item path stay valid. Worked out once an id schema.
 */
export function textIdMaker(schema: JsonSchema): FreshValue | undefined {
  if (makers.has(schema)) return makers.get(schema);
  const valid = compileSchema(schema as object, 'id');
  const fits = (make: FreshValue) => Array.from({ length: TRIES }, make).every((id) => valid(id).length === 0);
  const example = schema.example ?? schema.examples?.[0];
  const shaped = typeof example === 'string' ? freshIds(schema, example).find(fits) : undefined;
  const counted = fits(() => '1') && valid(String(Number.MAX_SAFE_INTEGER)).length === 0;
  const maker = shaped ?? (counted ? undefined : freshIds(schema, undefined).find(fits));
  makers.set(schema, maker);
  return maker;
}
