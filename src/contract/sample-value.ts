import type { JsonSchema } from './operation.js';

const MAX_DEPTH = 8;

export interface SampleOptions {
  /** Fill optional properties too. */
  readonly withOptional?: boolean;
  /** Appended to every free-text string (the runner's mark, to find what a run created); none by default. */
  readonly mark?: string;
}

/**
 * A valid value for `schema`: the contract's example where it gives one, else the simplest value its type,
 * bounds and enum allow. Shared by the runner (request bodies, ids) and the mock (an error body's own fields).
 */
export function sampleValue(schema: JsonSchema | undefined, options: SampleOptions = {}, depth = 0): unknown {
  if (!schema) return 'sample';
  // A schema that contains itself (a tree of categories) would never end: deep enough is null.
  if (depth > MAX_DEPTH) return null;
  const { withOptional = false, mark } = options;
  const example = schema.example ?? schema.examples?.[0];
  if (schema.enum?.length) return schema.enum.includes(example) ? example : schema.enum[0];
  switch (schema.type) {
    case 'object': {
      const value: Record<string, unknown> = {};
      for (const [name, property] of Object.entries(schema.properties ?? {})) {
        if (withOptional || schema.required?.includes(name)) value[name] = sampleValue(property, options, depth + 1);
      }
      // A merge-patch schema with no required field but `minProperties: 1` refuses `{}`: fill optional ones to it.
      const least = (schema as { minProperties?: number }).minProperties ?? 0;
      for (const [name, property] of Object.entries(schema.properties ?? {})) {
        if (Object.keys(value).length >= least) break;
        if (!(name in value)) value[name] = sampleValue(property, options, depth + 1);
      }
      return value;
    }
    case 'array':
      return [sampleValue(schema.items, options, depth + 1)];
    case 'integer':
    case 'number':
      return typeof example === 'number' ? example : smallestNumber(schema);
    case 'boolean':
      return typeof example === 'boolean' ? example : true;
    case 'string': {
      if (schema.format === 'date-time') return '2026-01-01T00:00:00Z';
      if (schema.format === 'date') return '2026-01-01';
      if (!isFreeText(schema)) return example ?? 'sample';
      const text = typeof example === 'string' ? example : 'sample';
      return mark === undefined ? text : `${text} ${mark}`;
    }
    default:
      return example ?? 'sample';
  }
}

// 1, or the least value the bounds allow above it (an exclusive minimum is a number: draft 7, OpenAPI 3.1).
function smallestNumber(schema: JsonSchema): number {
  const above = typeof schema.exclusiveMinimum === 'number' ? Math.floor(schema.exclusiveMinimum) + 1 : 1;
  const least = Math.max(1, schema.minimum ?? 1, above);
  return Math.min(least, schema.maximum ?? least);
}

/** A string the contract constrains only by type: any text is valid in it. */
export function isFreeText(schema: JsonSchema): boolean {
  return schema.type === 'string' && !schema.enum && !schema.format && schema.maxLength === undefined && !('pattern' in schema);
}
