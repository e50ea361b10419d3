import type { JsonSchema } from './operation.js';
import { codePoints, fitsString, madeString, otherString } from './sample/string-sample.js';

const MAX_DEPTH = 8;

export interface SampleOptions {
  /** Fill optional properties too. */
  readonly withOptional?: boolean;
  /** Appended to every free-text string (the runner's mark, to find what a run created); none by default. */
  readonly mark?: string;
}

/**
 * A valid value for `schema`: the contract's own value where it gives one that the schema allows (`const`, an enum
 * value, `example`, 3.1 `examples`, `default`), else the simplest value its type, format, bounds and pattern allow
 * (docs/reference/case-kinds.md, "Sample values"). Shared by the runner (request bodies, ids) and the mock (an error
 * body's own fields, the answer of a create nothing reads back).
 */
export function sampleValue(schema: JsonSchema | undefined, options: SampleOptions = {}, depth = 0): unknown {
  if (!schema) return 'sample';
  // A schema that contains itself (a tree of categories) would never end: deep enough is null.
  if (depth > MAX_DEPTH) return null;
  if ('const' in schema) return schema.const;
  const given = givenValues(schema);
  if (schema.enum?.length) return schema.enum.includes(given[0]) ? given[0] : schema.enum[0];
  // A schema read raw (the mock's fills) may keep a 3.1 type list: its first type other than null.
  const types: unknown = schema.type;
  if (Array.isArray(types)) return sampleValue({ ...schema, type: types.find((t) => t !== 'null') }, options, depth);
  switch (schema.type) {
    case 'object':
      return sampleObject(schema, options, depth);
    case 'array':
      return sampleArray(schema, options, depth);
    case 'integer':
    case 'number':
      return given.find((value) => typeof value === 'number' && allowsNumber(schema, value)) ?? smallestNumber(schema);
    case 'boolean':
      return given.find((value) => typeof value === 'boolean') ?? true;
    case 'string':
      return sampleString(schema, options.mark);
    default:
      return given.length > 0 ? given[0] : sampleAlternative(schema, options, depth);
  }
}

/**
 * A schema of alternatives and no type (FastAPI's Optional[dict]: `anyOf: [{type: object}, {type: null}]`): the
 * sample of its first alternative that is not null. Before, 'sample' went where an object was asked for.
 */
function sampleAlternative(schema: JsonSchema, options: SampleOptions, depth: number): unknown {
  const alternatives = schema.anyOf ?? schema.oneOf;
  if (!alternatives?.length) return 'sample';
  const chosen = alternatives.find((alternative) => alternative.type !== 'null') ?? alternatives[0];
  return sampleValue(chosen, options, depth + 1);
}

/**
 * Why no valid value of a string schema could be made (a pattern with a lookahead, a format that leaves no room
 * within the length bounds), naming the construct; undefined when its sample is valid.
 */
export function unmadeSample(schema: JsonSchema): string | undefined {
  if (schema.type !== 'string' || schema.enum || 'const' in schema) return undefined;
  if (givenValues(schema).some((value) => fitsString(schema, value))) return undefined;
  const made = madeString(schema);
  return typeof made === 'string' ? undefined : made.unmade;
}

/** The values the contract gives for the schema, in the order they are tried. */
function givenValues(schema: JsonSchema): unknown[] {
  return [
    ...('example' in schema ? [schema.example] : []),
    ...(Array.isArray(schema.examples) ? schema.examples : []),
    ...('default' in schema ? [schema.default] : []),
  ];
}

function sampleObject(schema: JsonSchema, options: SampleOptions, depth: number): Record<string, unknown> {
  const value: Record<string, unknown> = {};
  const properties = Object.entries(schema.properties ?? {});
  for (const [name, property] of properties) {
    if (options.withOptional || schema.required?.includes(name)) value[name] = sampleValue(property, options, depth + 1);
  }
  // A merge-patch schema with no required field but `minProperties: 1` refuses `{}`: fill optional ones to it.
  const least = schema.minProperties ?? 0;
  for (const [name, property] of properties) {
    if (Object.keys(value).length >= least) break;
    if (!(name in value)) value[name] = sampleValue(property, options, depth + 1);
  }
  return value;
}

// The contract's array where its length and items fit; else the 3.1 prefixItems in order, then items up to
// minItems (one item where nothing bounds it), each different from the others where uniqueItems asks it.
function sampleArray(schema: JsonSchema, options: SampleOptions, depth: number): unknown[] {
  const min = schema.minItems ?? 0;
  const max = schema.maxItems ?? Number.POSITIVE_INFINITY;
  const given = givenValues(schema).find(
    (value): value is unknown[] =>
      Array.isArray(value) &&
      value.length >= min &&
      value.length <= max &&
      (!schema.uniqueItems || new Set(value.map((item) => JSON.stringify(item))).size === value.length) &&
      value.every((item, i) => itemAllows(schema.prefixItems?.[i] ?? schema.items, item)),
  );
  if (given) return given;
  const prefix = (schema.prefixItems ?? []).slice(0, max).map((item) => sampleValue(item, options, depth + 1));
  const count = Math.min(max, Math.max(min, prefix.length, schema.prefixItems ? 0 : 1));
  const items = [...prefix];
  const seen = new Set(items.map((item) => JSON.stringify(item)));
  for (let i = 0; items.length < count && i < count + 16; i++) {
    const item = i === 0 ? sampleValue(schema.items, options, depth + 1) : anotherItem(schema.items, i, options, depth + 1);
    if (schema.uniqueItems && seen.has(JSON.stringify(item))) continue;
    seen.add(JSON.stringify(item));
    items.push(item);
  }
  return items;
}

// The i-th other value of an item schema: its next enum value, the next number up, the sample with a counter.
function anotherItem(schema: JsonSchema | undefined, i: number, options: SampleOptions, depth: number): unknown {
  const plain = sampleValue(schema, options, depth);
  if (schema?.enum?.length) return schema.enum[i % schema.enum.length];
  if (typeof plain === 'number' && schema && allowsNumber(schema, plain + i)) return plain + i;
  if (typeof plain === 'string') return schema ? (otherString(schema, plain, i) ?? plain) : `${plain}${i}`;
  return plain;
}

// Enough of a check for the contract's own array example: scalar items against their type and bounds.
function itemAllows(schema: JsonSchema | undefined, item: unknown): boolean {
  if (!schema) return true;
  if (schema.enum) return schema.enum.includes(item);
  if (schema.type === 'string') return fitsString(schema, item);
  if (schema.type === 'integer') return Number.isInteger(item) && allowsNumber(schema, item as number);
  if (schema.type === 'number') return typeof item === 'number' && allowsNumber(schema, item);
  if (schema.type === 'boolean') return typeof item === 'boolean';
  if (schema.type === 'object') return item !== null && typeof item === 'object' && !Array.isArray(item);
  return true;
}

function sampleString(schema: JsonSchema, mark: string | undefined): string {
  const given = givenValues(schema).find((value) => fitsString(schema, value));
  if (!isFreeText(schema)) {
    if (given !== undefined) return given;
    const made = madeString(schema);
    return typeof made === 'string' ? made : made.value;
  }
  const text = given ?? 'sample';
  // The mark may be filled in shorter than its template ({{run.id}} is 8 characters): the text alone meets minLength.
  const long = codePoints(text) >= (schema.minLength ?? 0) ? text : (madeString(schema, text) as string);
  return mark === undefined ? long : `${long} ${mark}`;
}

// 1, or the least value the bounds allow above it (an exclusive minimum is a number: draft 7, OpenAPI 3.1), a
// multiple of multipleOf where one is set.
function smallestNumber(schema: JsonSchema): number {
  const above = typeof schema.exclusiveMinimum === 'number' ? Math.floor(schema.exclusiveMinimum) + 1 : 1;
  let least = Math.max(1, schema.minimum ?? 1, above);
  if (schema.multipleOf) least = Math.ceil(least / schema.multipleOf) * schema.multipleOf;
  return Math.min(least, schema.maximum ?? least);
}

function allowsNumber(schema: JsonSchema, value: number): boolean {
  if (schema.type === 'integer' && !Number.isInteger(value)) return false;
  if (schema.minimum !== undefined && value < schema.minimum) return false;
  if (schema.maximum !== undefined && value > schema.maximum) return false;
  if (typeof schema.exclusiveMinimum === 'number' && value <= schema.exclusiveMinimum) return false;
  if (typeof schema.exclusiveMaximum === 'number' && value >= schema.exclusiveMaximum) return false;
  if (schema.exclusiveMinimum === true && schema.minimum !== undefined && value <= schema.minimum) return false;
  if (schema.exclusiveMaximum === true && schema.maximum !== undefined && value >= schema.maximum) return false;
  return !schema.multipleOf || Number.isInteger(value / schema.multipleOf);
}

/** A string the contract constrains only by type: any text is valid in it. */
export function isFreeText(schema: JsonSchema): boolean {
  return schema.type === 'string' && !schema.enum && !schema.format && schema.maxLength === undefined && !('pattern' in schema);
}
