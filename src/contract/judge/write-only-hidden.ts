import { findMedia, findResponse, mediaTypeOf } from '../find-response.js';
import type { JsonSchema, Operation } from '../operation.js';
import type { Problem } from './problem.js';
import type { ReceivedResponse } from './received-response.js';

// Deeper than any record a contract describes; a schema that contains itself is walked no further.
const MAX_DEPTH = 32;
// Enough places to say what is wrong; a list of a thousand users each with its password says it in the first ones.
const MAX_PLACES = 5;

/**
 * An answer that carries a property its documented response schema marks writeOnly (OpenAPI 3.0.3 and 3.1,
 * Schema Object: such a property SHOULD NOT be sent in a response; a password is the usual one). Only where
 * the property is, never its value: it may be a secret.
 */
export function judgeWriteOnlyHidden(operation: Operation, response: ReceivedResponse): Problem | undefined {
  const documented = findResponse(operation, response.status);
  if (!documented || response.json === undefined) return undefined;
  const media = findMedia(documented.contents, mediaTypeOf(response.headers['content-type'])) ?? documented.contents[0];
  if (!media?.schema || !hasWriteOnly(media.schema)) return undefined;
  const places: string[] = [];
  findWriteOnly(response.json, media.schema, 'body', places, 0);
  if (places.length === 0) return undefined;
  const shown = places.slice(0, MAX_PLACES).join(', ');
  // The same fault in every item of a list is one title (`body[].password`), so failed cases group by it.
  const fields = [...new Set(places.map((place) => place.replace(/\[\d+\]/g, '[]')))].join(', ');
  return {
    title: `writeOnly field answered: ${fields}`,
    received: `${shown}${places.length > MAX_PLACES ? ', ...' : ''} (values not shown)`,
    documented: `writeOnly in the ${documented.code} response of ${operation.operationId}: never sent in a response`,
  };
}

function findWriteOnly(value: unknown, schema: JsonSchema, path: string, places: string[], depth: number): void {
  if (depth > MAX_DEPTH || places.length > MAX_PLACES || value === null || typeof value !== 'object') return;
  if (!isSchema(schema)) return;
  if (Array.isArray(value)) {
    if (schema.items === undefined) return;
    for (let i = 0; i < value.length && places.length <= MAX_PLACES; i++)
      findWriteOnly(value[i], schema.items, `${path}[${i}]`, places, depth + 1);
    return;
  }
  const record = value as Readonly<Record<string, unknown>>;
  for (const name of schema.writeOnlyProperties ?? []) if (Object.hasOwn(record, name)) places.push(`${path}.${name}`);
  for (const [name, property] of Object.entries(schema.properties ?? {})) {
    if (Object.hasOwn(record, name)) findWriteOnly(record[name], property, `${path}.${name}`, places, depth + 1);
  }
}

// Most answers' schemas mark nothing writeOnly: each schema is searched once, and their bodies never walked.
const marked = new WeakMap<JsonSchema, boolean>();

function hasWriteOnly(schema: JsonSchema, depth = 0): boolean {
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
