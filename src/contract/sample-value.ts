import type { JsonSchema } from './operation.js';
import { codePoints, fitsString, madeString, otherString } from './sample/string-sample.js';

// Deeper than any record a contract describes; recursion is bounded by RECURSION_DEPTH well before it.
const MAX_DEPTH = 32;

/**
 * How many times, along one path down a sample, a schema that contains itself (a subcategory's children, a rule's
 * clauses' rules, a label's next) is nested in itself: past it, an optional property that would nest one again is
 * left out and an array of one is empty, so a sample of a recursive schema ends, small.
 */
export const RECURSION_DEPTH = 2;

// Values a sample makes before it fills nothing optional: schemas that each refer to many others (every one of a
// dozen schemas holding all the others) would otherwise nest a bounded but astronomical number of them.
const MAX_VALUES = 1000;

export interface SampleOptions {
  /** Fill optional properties too. */
  readonly withOptional?: boolean;
  /** Appended to every free-text string (the runner's mark, to find what a run created); none by default. */
  readonly mark?: string;
}

// The walk of one sample: the schemas open on the way down, how many of them were opened inside themselves, those
// a required property opened again past the bound, the property names that lead here, and where a required
// property made a schema contain itself at every depth.
interface Walk {
  readonly open: Set<JsonSchema>;
  nested: number;
  made: number;
  readonly forced: Set<JsonSchema>;
  readonly names: string[];
  endless?: string;
}

const newWalk = (): Walk => ({ open: new Set(), nested: 0, made: 0, forced: new Set(), names: [] });

/**
 * A valid value for `schema`: the contract's own value where it gives one that the schema allows (`const`, an enum
 * value, `example`, 3.1 `examples`, `default`), else the simplest value its type, format, bounds and pattern allow
 * (docs/reference/case-kinds.md, "Sample values"). Shared by the runner (request bodies, ids) and the mock (an error
 * body's own fields, the answer of a create nothing reads back).
 */
export function sampleValue(schema: JsonSchema | undefined, options: SampleOptions = {}): unknown {
  return sample(schema, options, 0, newWalk());
}

/**
 * Where a schema requires itself inside itself (a node whose required `next` is a node), so that no finite value
 * is valid and its sample cannot be: the property path and why. Undefined for a schema with a finite sample.
 */
export function endlessRecursion(schema: JsonSchema | undefined): string | undefined {
  if (schema === undefined) return undefined;
  if (!endless.has(schema)) {
    const walk = newWalk();
    sample(schema, {}, 0, walk);
    endless.set(schema, walk.endless);
  }
  return endless.get(schema);
}

// A loaded schema does not change: whether it is endless is found once (the runner asks for each step it makes).
const endless = new WeakMap<JsonSchema, string | undefined>();

function sample(schema: JsonSchema | undefined, options: SampleOptions, depth: number, walk: Walk): unknown {
  if (!schema) return 'sample';
  if (depth > MAX_DEPTH) {
    walk.endless ??= `${walk.names.join('.')}: nested deeper than ${MAX_DEPTH} levels`;
    return null;
  }
  // An array is the container of a recursion, not a level of it: a subcategory in its parent's children is one.
  if (!walk.open.has(schema) || schema.type === 'array') {
    const opened = !walk.open.has(schema);
    walk.open.add(schema);
    try {
      return sampleOf(schema, options, depth, walk);
    } finally {
      if (opened) walk.open.delete(schema);
    }
  }
  // Past the bound, only a required property opens a schema again, and what it makes is the same each time: a
  // schema opened so twice would be opened so forever.
  const past = walk.nested >= RECURSION_DEPTH;
  if (past && walk.forced.has(schema)) {
    walk.endless ??= `${walk.names.join('.')}: a required property whose schema contains itself again at every depth, so no finite value is valid`;
    return null;
  }
  walk.nested++;
  if (past) walk.forced.add(schema);
  try {
    return sampleOf(schema, options, depth, walk);
  } finally {
    walk.nested--;
    if (past) walk.forced.delete(schema);
  }
}

// Would sampling this schema nest a schema inside itself once more than RECURSION_DEPTH allows? Its items are
// looked at too: an array of a recursive schema is the usual way a tree holds its children.
function nestsTooDeep(schema: JsonSchema | undefined, walk: Walk): boolean {
  if (!schema || walk.nested < RECURSION_DEPTH) return false;
  return walk.open.has(schema) || (schema.type === 'array' && schema.items !== undefined && walk.open.has(schema.items));
}

// A property sampled with its name on the walk's path; an optional one whose sample would be endless is left out.
function sampleProperty(
  name: string,
  schema: JsonSchema,
  options: SampleOptions,
  depth: number,
  walk: Walk,
  optional: boolean,
): unknown {
  walk.names.push(name);
  const before = walk.endless;
  const value = sample(schema, options, depth + 1, walk);
  walk.names.pop();
  if (!optional || walk.endless === before) return value;
  walk.endless = before;
  return undefined;
}

function sampleOf(schema: JsonSchema, options: SampleOptions, depth: number, walk: Walk): unknown {
  walk.made++;
  if ('const' in schema) return schema.const;
  const given = givenValues(schema);
  if (schema.enum?.length) return schema.enum.includes(given[0]) ? given[0] : schema.enum[0];
  // A schema read raw (the mock's fills) may keep a 3.1 type list: its first type other than null.
  const types: unknown = schema.type;
  if (Array.isArray(types)) return sampleOf({ ...schema, type: types.find((t) => t !== 'null') }, options, depth, walk);
  switch (schema.type) {
    case 'object':
      return sampleObject(schema, options, depth, walk);
    case 'array':
      return sampleArray(schema, options, depth, walk);
    case 'integer':
    case 'number':
      return given.find((value) => typeof value === 'number' && allowsNumber(schema, value)) ?? smallestNumber(schema);
    case 'boolean':
      return given.find((value) => typeof value === 'boolean') ?? true;
    case 'string':
      return sampleString(schema, options.mark);
    default:
      return given.length > 0 ? given[0] : sampleAlternative(schema, options, depth, walk);
  }
}

/**
 * A schema of alternatives and no type (FastAPI's Optional[dict]: `anyOf: [{type: object}, {type: null}]`): the
 * sample of its first alternative that is not null. Before, 'sample' went where an object was asked for.
 */
function sampleAlternative(schema: JsonSchema, options: SampleOptions, depth: number, walk: Walk): unknown {
  const alternatives = schema.anyOf ?? schema.oneOf;
  if (!alternatives?.length) return 'sample';
  const chosen = alternatives.find((alternative) => alternative.type !== 'null') ?? alternatives[0];
  return sample(chosen, options, depth + 1, walk);
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

function sampleObject(schema: JsonSchema, options: SampleOptions, depth: number, walk: Walk): Record<string, unknown> {
  const value: Record<string, unknown> = {};
  const properties = Object.entries(schema.properties ?? {});
  const fill = (name: string, property: JsonSchema, optional: boolean) => {
    const made = sampleProperty(name, property, options, depth, walk, optional);
    if (made !== undefined) value[name] = made;
  };
  for (const [name, property] of properties) {
    const required = schema.required?.includes(name) === true;
    const room = walk.made < MAX_VALUES && !nestsTooDeep(property, walk);
    if (required || (options.withOptional && room)) fill(name, property, !required);
  }
  // A merge-patch schema with no required field but `minProperties: 1` refuses `{}`: fill optional ones to it,
  // those that nest no recursion first.
  const least = schema.minProperties ?? 0;
  if (Object.keys(value).length >= least) return value;
  const ordered = [...properties].sort(([, a], [, b]) => Number(nestsTooDeep(a, walk)) - Number(nestsTooDeep(b, walk)));
  for (const [name, property] of ordered) {
    if (Object.keys(value).length >= least) break;
    if (!(name in value)) fill(name, property, true);
  }
  return value;
}

// The contract's array where its length and items fit; else the 3.1 prefixItems in order, then items up to
// minItems (one item where nothing bounds it), each different from the others where uniqueItems asks it.
function sampleArray(schema: JsonSchema, options: SampleOptions, depth: number, walk: Walk): unknown[] {
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
  const prefix = (schema.prefixItems ?? []).slice(0, max).map((item) => sample(item, options, depth + 1, walk));
  // Items that would nest a recursive schema past its bound: as few as the array allows.
  const fewest = schema.prefixItems || nestsTooDeep(schema.items, walk) || walk.made >= MAX_VALUES ? 0 : 1;
  const count = Math.min(max, Math.max(min, prefix.length, fewest));
  const items = [...prefix];
  const seen = new Set(items.map((item) => JSON.stringify(item)));
  for (let i = 0; items.length < count && i < count + 16; i++) {
    const item =
      i === 0 ? sample(schema.items, options, depth + 1, walk) : anotherItem(schema.items, i, options, depth + 1, walk);
    if (schema.uniqueItems && seen.has(JSON.stringify(item))) continue;
    seen.add(JSON.stringify(item));
    items.push(item);
  }
  return items;
}

// The i-th other value of an item schema: its next enum value, the next number up, the sample with a counter.
function anotherItem(schema: JsonSchema | undefined, i: number, options: SampleOptions, depth: number, walk: Walk): unknown {
  const plain = sample(schema, options, depth, walk);
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
