import type { JsonSchema } from '../../contract/operation.js';
import type { RawSchema } from '../../contract/resources/object-shape.js';
import { sampleValue } from '../../contract/sample-value.js';

type Viewed = RawSchema & { readonly const?: unknown; readonly nullable?: boolean; readonly minItems?: number };

/**
 * What the server stores in a field of the representation that neither the request nor the server's own rules
 * (a time stamp, a uuid) give a value (docs/reference/resources.md, Creates): the one value a `const` or a
 * single-value enum allows, else the `default`; a required field gets one in any case, null where it is nullable,
 * an empty array (or the fewest items `minItems` allows), else a valid sample. Undefined leaves an optional field out.
 */
export function leftOutValue(property: RawSchema, required: boolean): unknown {
  const schema = property as Viewed;
  if (Object.hasOwn(schema, 'const')) return copied(schema.const);
  if (schema.enum?.length === 1) return copied(schema.enum[0]);
  if (schema.default !== undefined) return copied(schema.default);
  if (!required) return undefined;
  const types = typeof schema.type === 'string' ? [schema.type] : (schema.type ?? []);
  if (schema.nullable === true || types.includes('null')) return null;
  if (types.includes('array')) {
    const prefix = (schema as { prefixItems?: readonly RawSchema[] }).prefixItems ?? [];
    return Array.from({ length: schema.minItems ?? 0 }, (_, i) => sampleValue((prefix[i] ?? schema.items) as JsonSchema));
  }
  return sampleValue(schema as JsonSchema);
}

/** A value of the contract's own (a default, a const): each record gets its own copy. */
export function copied(value: unknown): unknown {
  return typeof value === 'object' && value !== null ? structuredClone(value) : value;
}
