import type { JsonSchema } from './operation.js';

// Deeper than any record a contract describes; a schema that contains itself is walked no further.
const MAX_DEPTH = 32;

/**
 * Each property of a response body that its schema (a response's view, effectiveSchema) marks writeOnly, by where it
 * is (`body.items[0].password`): `found` is called with the object that holds it, its name and its place, and
 * returns false to stop the walk. The judge names the places; the mock leaves the properties out of what it sends.
 */
export function eachWriteOnly(
  value: unknown,
  schema: JsonSchema,
  path: string,
  found: (record: Record<string, unknown>, name: string, place: string) => boolean,
): void {
  walk(value, schema, path, found, 0);
}

function walk(
  value: unknown,
  schema: JsonSchema,
  path: string,
  found: (record: Record<string, unknown>, name: string, place: string) => boolean,
  depth: number,
): boolean {
  if (depth > MAX_DEPTH || value === null || typeof value !== 'object' || !isSchema(schema)) return true;
  if (Array.isArray(value)) {
    if (schema.items === undefined) return true;
    for (let i = 0; i < value.length; i++) if (!walk(value[i], schema.items, `${path}[${i}]`, found, depth + 1)) return false;
    return true;
  }
  const record = value as Record<string, unknown>;
  for (const name of schema.writeOnlyProperties ?? []) {
    if (Object.hasOwn(record, name) && !found(record, name, `${path}.${name}`)) return false;
  }
  for (const [name, property] of Object.entries(schema.properties ?? {})) {
    if (Object.hasOwn(record, name) && !walk(record[name], property, `${path}.${name}`, found, depth + 1)) return false;
  }
  return true;
}

// Most answers' schemas mark nothing writeOnly: each schema is searched once, and their bodies never walked.
const marked = new WeakMap<JsonSchema, boolean>();

/** Whether the schema, or one it holds, marks a property writeOnly. */
export function hasWriteOnly(schema: JsonSchema, depth = 0): boolean {
  // OpenAPI 3.1 allows `true` and `false` as schemas (`items: false`): they mark nothing.
  if (!isSchema(schema)) return false;
  const known = marked.get(schema);
  if (known !== undefined) return known;
  // Set before the walk: a schema that contains itself answers false on the way, its own parts decide.
  marked.set(schema, false);
  const inside = [schema.items, ...Object.values(schema.properties ?? {})];
  const found =
    (schema.writeOnlyProperties?.length ?? 0) > 0 ||
    (depth < MAX_DEPTH && inside.some((part) => hasWriteOnly(part as JsonSchema, depth + 1)));
  marked.set(schema, found);
  return found;
}

function isSchema(schema: unknown): schema is JsonSchema {
  return typeof schema === 'object' && schema !== null;
}
