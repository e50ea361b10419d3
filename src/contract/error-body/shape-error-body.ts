import { STATUS_CODES } from 'node:http';
import { stringifyJson } from '../lossless-json.js';
import type { JsonSchema, MediaSpec } from '../operation.js';
import { sampleValue } from '../sample-value.js';
import { roleOf } from './error-roles.js';

/** How one documented error body is written: made once per (operation, status), filled for each refusal. */
export interface ErrorBodyShape {
  /** The documented media type, lower-case (application/problem+json where the contract says so). */
  readonly mediaType: string;
  /** The body, as JSON text, for an error of this shape's status with this code and message. */
  readonly body: (code: string, message: string) => string;
}

/** A part of the body, from the error's code and message (the status is fixed for a shape). */
type Fill = (code: string, message: string) => unknown;

interface Part {
  readonly fill: Fill;
  /** What of the error this part says: CODE, MESSAGE, FIXED (its status, a reason phrase) bits; 0 for a sample. */
  readonly carries: number;
}

const CODE = 1;
const MESSAGE = 2;
const FIXED = 4;
const MAX_DEPTH = 8;
// What the built body is validated with at start: any code and message fill a field the same way (see textPart).
const PROBE_CODE = 'error_code';
const PROBE_MESSAGE = 'what the error was';

/**
 * The shape of `media`'s body for an error of `status`: its fields filled by what their names mean (roleOf),
 * nested objects by the same reading, any other required field with the contract's example or the least value its
 * schema allows. The body is validated with the contract's own validator once, here; undefined when it cannot be
 * made valid (or the media has no schema), and the caller sends its own body.
 */
export function shapeErrorBody(media: MediaSpec, status: number): ErrorBodyShape | undefined {
  const { schema, validate } = media;
  if (!schema || !validate) return undefined;
  let best: Part | undefined;
  for (const candidate of alternatives(schema)) {
    // The error's code and message as members of their own where no field carries them (RFC 9457 §3.2), unless
    // the schema refuses members it does not name.
    for (const extend of [true, false]) {
      const part = partOf(candidate, undefined, status, 0, extend);
      if (!part || validate(part.fill(PROBE_CODE, PROBE_MESSAGE)).length > 0) continue;
      if (!best || said(part) > said(best)) best = part;
    }
  }
  if (!best) return undefined;
  const { fill } = best;
  return { mediaType: media.mediaType, body: (code, message) => stringifyJson(fill(code, message)) };
}

// How much of the error a body says: its code and its message count most, then a fixed part (the status).
function said(part: Part): number {
  return (
    ((part.carries & CODE) !== 0 ? 2 : 0) + ((part.carries & MESSAGE) !== 0 ? 2 : 0) + ((part.carries & FIXED) !== 0 ? 1 : 0)
  );
}

// The schema itself, then each of its oneOf and anyOf branches, in order.
function alternatives(schema: JsonSchema): readonly JsonSchema[] {
  const { oneOf = [], anyOf = [] } = schema as { oneOf?: JsonSchema[]; anyOf?: JsonSchema[] };
  return [schema, ...oneOf, ...anyOf];
}

type Role = 'status' | 'code' | 'message' | 'reason';

function partOf(schema: JsonSchema, role: Role | undefined, status: number, depth: number, extend = false): Part | undefined {
  if (depth > MAX_DEPTH) return undefined;
  if (schema.type === 'object' || (schema.type === undefined && schema.properties))
    return objectPart(schema, status, depth, extend);
  if (schema.type === 'array') return arrayPart(schema, status, depth);
  // A body that is a lone string says the message.
  return leafPart(schema, role ?? (depth === 0 ? 'message' : undefined), status);
}

function objectPart(schema: JsonSchema, status: number, depth: number, extend: boolean): Part {
  const properties = Object.entries(schema.properties ?? {});
  const required = new Set(schema.required ?? []);
  // Beside a field for the message, a title is the status's reason phrase (RFC 9457 §3.1.3: the same for every
  // occurrence of the problem); alone, it says the message.
  const titled = properties.some(([name, property]) => roleOf(name) === 'message' && leafPart(property, 'message', status));
  const fields: [string, Fill][] = [];
  let carries = 0;
  for (const [name, property] of properties) {
    const named = roleOf(name);
    const role = named === 'title' ? (titled ? 'reason' : 'message') : named;
    const part = partOf(property, role, status, depth + 1);
    if (part && (part.carries !== 0 || required.has(name))) {
      fields.push([name, part.fill]);
      carries |= part.carries;
    } else if (required.has(name)) fields.push([name, always(sampleValue(property))]);
  }
  for (const name of required) if (!schema.properties?.[name]) fields.push([name, always(sampleValue(undefined))]);
  const open =
    schema.additionalProperties !== false && (schema as { unevaluatedProperties?: unknown }).unevaluatedProperties !== false;
  if (extend && open) {
    if (!(carries & CODE) && !schema.properties?.code) fields.push(['code', (code) => code]);
    if (!(carries & MESSAGE) && !schema.properties?.message) fields.push(['message', (_, message) => message]);
    carries |= CODE | MESSAGE;
  }
  return {
    fill: (code, message) => {
      const value: Record<string, unknown> = {};
      for (const [name, fill] of fields) value[name] = fill(code, message);
      return value;
    },
    carries,
  };
}

// A list of error objects ({errors: [{code, message}]}) holds the error once (or as often as minItems asks).
function arrayPart(schema: JsonSchema, status: number, depth: number): Part | undefined {
  const item = schema.items && partOf(schema.items, undefined, status, depth + 1);
  if (!item || item.carries === 0) return undefined;
  const count = Math.max(1, (schema as { minItems?: number }).minItems ?? 0);
  return { fill: (code, message) => Array.from({ length: count }, () => item.fill(code, message)), carries: item.carries };
}

/** A field named for a role, when its schema lets it say that; undefined when it cannot (an enum of other codes). */
function leafPart(schema: JsonSchema, role: Role | undefined, status: number): Part | undefined {
  switch (role) {
    case 'status': {
      const value = schema.type === 'string' ? String(status) : status;
      if (schema.type !== undefined && !['integer', 'number', 'string'].includes(schema.type)) return undefined;
      return schema.enum && !schema.enum.includes(value) ? undefined : { fill: always(value), carries: FIXED };
    }
    case 'code':
      // A numeric code is the HTTP status ({"code": 404, "message": ...}).
      if (schema.type === 'integer' || schema.type === 'number') return leafPart(schema, 'status', status);
      // RFC 9457 §4.2.1: about:blank, the problem has no meaning beyond its status; the code goes in a member of its own.
      if (schema.format === 'uri' || schema.format === 'iri') return textPart(schema, () => 'about:blank', FIXED, true);
      return textPart(schema, (code) => code, CODE, REFERENCE_FORMATS.has(schema.format ?? ''));
    case 'message':
      return textPart(schema, (_, message) => message, MESSAGE, false);
    case 'reason': {
      const phrase = STATUS_CODES[status] ?? `HTTP ${status}`;
      return textPart(schema, () => phrase, FIXED, false);
    }
    default:
      return undefined;
  }
}

// A code is a relative reference (RFC 3986 §4.2): validation_failed is one.
const REFERENCE_FORMATS = new Set(['uri-reference', 'iri-reference']);

/**
 * A string field any text of the error fits: no enum, pattern or format (but `formatFits`), nothing shorter than
 * two characters refused; a maxLength cuts the text to it.
 */
function textPart(schema: JsonSchema, pick: Fill, carries: number, formatFits: boolean): Part | undefined {
  if (schema.type !== undefined && schema.type !== 'string') return undefined;
  if (schema.enum || 'const' in schema || 'pattern' in schema || (schema.minLength ?? 0) > 1) return undefined;
  if (schema.format !== undefined && !formatFits) return undefined;
  const max = schema.maxLength;
  const fill: Fill = max === undefined ? pick : (code, message) => (pick(code, message) as string).slice(0, max);
  return { fill, carries };
}

function always(value: unknown): Fill {
  return () => value;
}
