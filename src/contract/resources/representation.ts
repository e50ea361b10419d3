import { isJsonMedia } from '../find-response.js';
import type { JsonSchema, Operation } from '../operation.js';
import { requestPointerOf, schemaAt } from './envelope.js';
import { objectShape, type RawSchema, schemaTypes } from './object-shape.js';

/** A schema found inside an answer, and the property names that lead to it from the answer's top. */
export interface Found {
  readonly schema: RawSchema;
  readonly pointer: readonly string[];
}

// docs/resources.md rule 3: a single `data`/`result`-style wrapper around one record is unwrapped.
const ITEM_WRAPPERS = new Set(['data', 'result', 'item', 'resource']);

/** The schema of the operation's lowest documented 2xx JSON answer (200 before 201 before 2XX). */
export function answerSchema(operation: Operation): RawSchema | undefined {
  const successes = operation.responses.filter((r) => r.code.startsWith('2')).sort((a, b) => a.code.localeCompare(b.code));
  for (const response of successes) {
    const media = response.contents.find((c) => isJsonMedia(c.mediaType) && c.schema !== undefined);
    if (media) return media.schema as RawSchema;
  }
  return undefined;
}

/** The JSON request body's schema, when the operation takes one. */
export function requestBodySchema(operation: Operation): RawSchema | undefined {
  return operation.requestBody?.contents.find((c) => isJsonMedia(c.mediaType) && c.schema !== undefined)?.schema as
    | RawSchema
    | undefined;
}

/**
 * The schema of the record the request body carries, typed as the case generators read it (properties, bounds,
 * enums): inside its envelope where the resource model found one (`CustomerInput` of `{ data: CustomerInput }`).
 */
export function requestSchema(operation: Operation): JsonSchema | undefined {
  return schemaAt(requestBodySchema(operation), requestPointerOf(operation)) as JsonSchema | undefined;
}

/** One record in an answer: an object, or a lone `data`-style wrapper around one. */
export function recordIn(schema: RawSchema | JsonSchema | undefined): Found | undefined {
  const shape = objectShape(schema);
  if (!shape) return undefined;
  const names = Object.keys(shape.properties);
  const only = names.length === 1 ? (names[0] as string) : undefined;
  if (only !== undefined && ITEM_WRAPPERS.has(only) && objectShape(shape.properties[only])) {
    return { schema: shape.properties[only] as RawSchema, pointer: [only] };
  }
  return { schema: schema as RawSchema, pointer: [] };
}

/**
 * The records of a list answer: a bare array of objects, or a page object with exactly one array of objects
 * (`{ items: [...], next }`), or with none but one object member that has exactly one (HAL's `_embedded`), whose
 * pointer is kept so that lists are wrapped again when answered.
 */
export function listedIn(schema: RawSchema | JsonSchema | undefined, nested = false): Found | undefined {
  const raw = schema as RawSchema | undefined;
  if (schemaTypes(raw).includes('array'))
    return objectShape(raw?.items) ? { schema: raw?.items as RawSchema, pointer: [] } : undefined;
  const shape = objectShape(raw);
  if (!shape) return undefined;
  const arrays = Object.entries(shape.properties).filter(([, p]) => schemaTypes(p).includes('array') && objectShape(p.items));
  if (arrays.length > 1) return undefined;
  if (arrays.length === 1) {
    const [name, property] = arrays[0] as [string, RawSchema];
    return { schema: property.items as RawSchema, pointer: [name] };
  }
  if (nested) return undefined;
  // HAL's `{ _embedded: { orders: [...] }, _links, page }`: the records one object further in, where exactly one
  // member of the page holds a list of them.
  const inner = Object.entries(shape.properties).flatMap(([name, property]) => {
    const found = listedIn(property, true);
    return found && found.pointer.length > 0 ? [{ schema: found.schema, pointer: [name, ...found.pointer] }] : [];
  });
  return inner.length === 1 ? inner[0] : undefined;
}
