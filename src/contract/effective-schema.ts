import type { JsonSchema } from './operation.js';

/** Which way a value travels: a request body or parameter, or a response body. */
export type Direction = 'request' | 'response';

// OpenAPI 3.0.3, Schema Object: a readOnly property "SHOULD NOT be sent as part of the request" and is never
// required there; a writeOnly one "SHOULD NOT be sent as part of the response" and is never required there.
const HIDDEN: Readonly<Record<Direction, 'readOnly' | 'writeOnly'>> = { request: 'readOnly', response: 'writeOnly' };

// Keywords whose values are data, not schemas: nothing below them is read as a schema.
const DATA = new Set(['enum', 'const', 'default', 'example', 'examples', 'required']);
// Keywords whose values are schemas (or lists of them) the view brings to one shape too.
const SUBSCHEMAS = new Set(['items', 'additionalProperties', 'not', 'anyOf', 'oneOf', 'prefixItems']);

type Raw = Record<string, unknown>;

const isObject = (value: unknown): value is Raw => value !== null && typeof value === 'object' && !Array.isArray(value);

/**
 * A schema as the generators and resource inference read it, each contract style brought to one shape:
 * `allOf` merged into one object (properties, the union of required), a 3.1 type array or an enum listing null
 * read as one type plus `nullable`, and the properties one direction does not carry (readOnly in a request,
 * writeOnly in a response) left out, the writeOnly ones named in `writeOnlyProperties`. Validation uses
 * `directedSchema`, which keeps the schema as written.
 */
export function effectiveSchema(schema: unknown, direction: Direction): JsonSchema {
  return view(schema, direction, new Map());
}

function view(schema: unknown, direction: Direction, seen: Map<object, JsonSchema>): JsonSchema {
  if (!isObject(schema)) return {};
  const known = seen.get(schema);
  if (known) return known;
  const out: Raw = {};
  // Registered before the walk below: a schema that contains itself (a tree) views as a graph, not forever.
  seen.set(schema, out as JsonSchema);
  const merged = foldAlternatives(flattenAllOf(schema), direction);
  for (const [key, value] of Object.entries(merged)) {
    if (key === 'properties' || key === 'required' || key === 'type' || key === '$schema') continue;
    if (!SUBSCHEMAS.has(key)) out[key] = value;
    else
      out[key] = Array.isArray(value)
        ? value.map((item) => view(item, direction, seen))
        : isObject(value)
          ? view(value, direction, seen)
          : value;
  }
  const types = Array.isArray(merged.type) ? (merged.type as unknown[]) : merged.type === undefined ? [] : [merged.type];
  const named = types.filter((type) => type !== 'null');
  const properties = isObject(merged.properties) ? merged.properties : undefined;
  if (named.length === 1) out.type = named[0];
  else if (named.length === 0 && properties) out.type = 'object';
  if (Array.isArray(merged.enum)) out.enum = distinct(merged.enum);
  if (types.includes('null') || (Array.isArray(merged.enum) && merged.enum.includes(null))) out.nullable = true;
  if (properties) {
    const shown = Object.entries(properties).filter(
      ([, property]) => !(isObject(property) && property[HIDDEN[direction]] === true),
    );
    out.properties = Object.fromEntries(shown.map(([name, property]) => [name, view(property, direction, seen)]));
    // Left out of the view, yet named: an answer that carries one breaks a SHOULD NOT (the writeOnly check).
    const hidden = Object.keys(properties).filter((name) => !shown.some(([shownName]) => shownName === name));
    if (direction === 'response' && hidden.length > 0) out.writeOnlyProperties = hidden;
    const required = Array.isArray(merged.required) ? distinct(merged.required) : [];
    out.required = required.filter((name) => shown.some(([shownName]) => shownName === name));
  } else if (Array.isArray(merged.required)) out.required = distinct(merged.required);
  return out as JsonSchema;
}

/**
 * One schema from `allOf` and the keywords beside it: the properties of every part (a property two parts
 * declare is the allOf of both), the union of their required lists, and for any other keyword the first
 * value, the schema's own before its parts'.
 */
function flattenAllOf(schema: Raw): Raw {
  const { allOf, ...own } = schema;
  if (!Array.isArray(allOf)) return schema;
  const merged: Raw = { ...own };
  const properties: Raw = { ...(isObject(own.properties) ? own.properties : {}) };
  const required = Array.isArray(own.required) ? [...own.required] : [];
  for (const part of allOf) {
    if (!isObject(part)) continue;
    const flat = flattenAllOf(part);
    for (const [name, property] of Object.entries(isObject(flat.properties) ? flat.properties : {})) {
      properties[name] = name in properties ? { allOf: [properties[name], property] } : property;
    }
    if (Array.isArray(flat.required)) required.push(...flat.required);
    for (const [key, value] of Object.entries(flat)) {
      // Values valid against every part: an enum narrowed by another part (a variant's `kind: {enum: [cat]}`).
      if (key === 'enum' && Array.isArray(merged.enum) && Array.isArray(value))
        merged.enum = merged.enum.filter((item) => value.some((other) => JSON.stringify(other) === JSON.stringify(item)));
      else if (!(key in merged) && key !== 'properties' && key !== 'required') merged[key] = value;
    }
  }
  if (Object.keys(properties).length > 0) merged.properties = properties;
  if (required.length > 0) merged.required = required;
  return merged;
}

/**
 * A `oneOf` or `anyOf` of objects read as one object beside the alternatives, which stay as written: in a request
 * the first alternative, whose sample is valid against the whole (it is one of them); in a response every
 * alternative's properties, required where all require them, so that an id any variant of a polymorphic resource
 * carries (cats and dogs under /animals) is read the same way. A schema with properties of its own is left as it is.
 */
function foldAlternatives(schema: Raw, direction: Direction): Raw {
  if (schema.properties !== undefined || (schema.type !== undefined && schema.type !== 'object')) return schema;
  const alternatives = [
    ...(Array.isArray(schema.oneOf) ? schema.oneOf : []),
    ...(Array.isArray(schema.anyOf) ? schema.anyOf : []),
  ].filter(isObject);
  const [first, ...others] = alternatives.map(flattenAllOf);
  const flat = first === undefined ? [] : [first, ...others];
  if (first === undefined || !flat.every((part) => isObject(part.properties))) return schema;
  if (direction === 'request') return { ...schema, properties: first.properties, required: first.required ?? [] };
  const properties: Raw = {};
  for (const part of flat) for (const [name, property] of Object.entries(part.properties as Raw)) properties[name] ??= property;
  const requiredBy = flat.map((part) => (Array.isArray(part.required) ? part.required : []));
  const required = (requiredBy[0] ?? []).filter((name) => requiredBy.every((names) => names.includes(name)));
  return { ...schema, properties, required };
}

/**
 * The schema as written, for validation in one direction: a property the direction does not carry is not
 * required, wherever its `required` is written (an allOf part may require what another marks readOnly). It is
 * still allowed: a client that sends a readOnly id breaks a SHOULD NOT, which a server may ignore.
 */
export function directedSchema(schema: unknown, direction: Direction): unknown {
  return direct(schema, direction, new Set(), new Set());
}

function direct(schema: unknown, direction: Direction, inherited: ReadonlySet<string>, ancestors: Set<object>): unknown {
  if (Array.isArray(schema)) return schema.map((item) => direct(item, direction, new Set(), ancestors));
  if (!isObject(schema) || ancestors.has(schema)) return schema;
  ancestors.add(schema);
  const merged = flattenAllOf(schema);
  const hidden = new Set(inherited);
  for (const [name, property] of Object.entries(isObject(merged.properties) ? merged.properties : {})) {
    if (isObject(property) && flattenAllOf(property)[HIDDEN[direction]] === true) hidden.add(name);
  }
  const out: Raw = {};
  for (const [key, value] of Object.entries(schema)) {
    if (key === 'required' && Array.isArray(value)) out.required = value.filter((name) => !hidden.has(String(name)));
    else if (key === 'allOf' && Array.isArray(value)) out.allOf = value.map((part) => direct(part, direction, hidden, ancestors));
    else if (key === 'properties' && isObject(value)) {
      out.properties = Object.fromEntries(
        Object.entries(value).map(([name, property]) => [name, direct(property, direction, new Set(), ancestors)]),
      );
    } else out[key] = DATA.has(key) ? value : direct(value, direction, new Set(), ancestors);
  }
  ancestors.delete(schema);
  return out;
}

// An enum that lists null, as OpenAPI 3.0.3 asks of a nullable one, gets a second null from the translation to
// JSON Schema (nullable → enum + null), which JSON Schema refuses ("enum must NOT have duplicate items").
export function distinct(values: readonly unknown[]): unknown[] {
  const seen = new Set<string>();
  return values.filter((value) => {
    const key = typeof value === 'bigint' ? `${value}n` : (JSON.stringify(value) ?? String(value));
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}
