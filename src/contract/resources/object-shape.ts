import type { JsonSchema } from '../operation.js';

/** A schema as loaded, with the keywords the resource inference reads that `JsonSchema` leaves out. */
export type RawSchema = Omit<JsonSchema, 'type' | 'properties' | 'items'> & {
  readonly type?: string | readonly string[];
  readonly properties?: Readonly<Record<string, RawSchema>>;
  readonly items?: RawSchema;
  readonly allOf?: readonly RawSchema[];
  readonly oneOf?: readonly RawSchema[];
  readonly anyOf?: readonly RawSchema[];
  readonly readOnly?: boolean;
  readonly writeOnly?: boolean;
  readonly [extension: `x-${string}`]: unknown;
};

export interface ObjectShape {
  readonly properties: Readonly<Record<string, RawSchema>>;
  readonly required: ReadonlySet<string>;
}

// A composition deeper than this is a cycle, or a contract no person wrote: read no further.
const MAX_DEPTH = 32;

/**
 * The properties and required names of an object schema, `allOf` members merged in (JSON Schema 2020-12 §10.2.1.1:
 * an instance valid against all of them has every member's properties). `undefined` for a schema that is not an
 * object. Read from the raw schema so that a Pet written as `allOf: [NewPet, {id}]` has its id here too.
 */
export function objectShape(schema: RawSchema | JsonSchema | undefined): ObjectShape | undefined {
  if (schema === undefined || schema === null || typeof schema !== 'object') return undefined;
  if (shapes.has(schema)) return shapes.get(schema);
  const properties: Record<string, RawSchema> = {};
  const required = new Set<string>();
  const shape = collect(schema as RawSchema, properties, required, 0) ? { properties, required } : undefined;
  shapes.set(schema, shape);
  return shape;
}

// A contract's schemas do not change once loaded, and their shapes are read for every answer a run judges and
// every record the mock fills in: each schema's is merged once. Keyed by the schema, so a contract replaced
// (--watch) takes its shapes with it.
const shapes = new WeakMap<object, ObjectShape | undefined>();

function collect(
  schema: RawSchema | undefined,
  properties: Record<string, RawSchema>,
  required: Set<string>,
  depth: number,
): boolean {
  if (schema === undefined || schema === null || typeof schema !== 'object' || depth > MAX_DEPTH) return false;
  const types = schemaTypes(schema);
  let object = types.includes('object') || schema.properties !== undefined;
  if (types.length > 0 && !types.includes('object')) return false;
  for (const [name, property] of Object.entries(schema.properties ?? {})) properties[name] ??= property;
  for (const name of schema.required ?? []) required.add(name);
  for (const member of schema.allOf ?? []) object = collect(member, properties, required, depth + 1) || object;
  return collectAlternatives([...(schema.oneOf ?? []), ...(schema.anyOf ?? [])], properties, required, depth) || object;
}

// The alternatives of a polymorphic object (oneOf, anyOf): every one's properties, required where all require them.
function collectAlternatives(
  alternatives: readonly RawSchema[],
  properties: Record<string, RawSchema>,
  required: Set<string>,
  depth: number,
): boolean {
  const shapes = alternatives.map((alternative) => {
    const own = { properties: {} as Record<string, RawSchema>, required: new Set<string>() };
    return collect(alternative, own.properties, own.required, depth + 1) ? own : undefined;
  });
  if (shapes.length === 0 || shapes.some((shape) => shape === undefined)) return false;
  for (const shape of shapes)
    for (const [name, property] of Object.entries(shape?.properties ?? {})) properties[name] ??= property;
  for (const name of shapes[0]?.required ?? []) if (shapes.every((shape) => shape?.required.has(name))) required.add(name);
  return true;
}

/** A schema's types: OpenAPI 3.0's one string, or 3.1's (and Prism's nullable) array of them. */
export function schemaTypes(schema: RawSchema | JsonSchema | undefined): readonly string[] {
  const type = (schema as RawSchema | undefined)?.type;
  if (typeof type === 'string') return [type];
  return Array.isArray(type) ? type.filter((t): t is string => typeof t === 'string') : [];
}

/** Scalar JSON types a path segment can carry. */
export function isScalarSchema(schema: RawSchema | JsonSchema | undefined): boolean {
  const types = schemaTypes(schema).filter((t) => t !== 'null');
  return types.length > 0 && types.every((t) => t === 'string' || t === 'integer' || t === 'number');
}
