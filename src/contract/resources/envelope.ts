import { isJsonMedia } from '../find-response.js';
import type { JsonSchema, Operation } from '../operation.js';
import { sampleValue } from '../sample-value.js';
import { setOwn } from '../set-own.js';
import { objectShape, type ObjectShape, type RawSchema, schemaTypes } from './object-shape.js';

/** The property names that lead from a body's top to the one record it carries: empty for a bare record. */
export type RecordPointer = readonly string[];

const BARE: RecordPointer = [];

/**
 * Where an answer of a record carries it (docs/reference/resources.md rule 10): at its top when the top has the id
 * field, else, where every member is an object or an array, in the one object member, required or the only member,
 * whose schema has it (`{ data: Customer }`, `{ customer: Customer, meta }`). Bare when no member or more than one fits.
 */
export function recordInAnswer(schema: RawSchema | undefined, idName: string): RecordPointer {
  const shape = objectShape(schema);
  if (!shape || shape.properties[idName] !== undefined || !onlyContainers(shape)) return BARE;
  return wrapper(shape, (inner) => inner.properties[idName] !== undefined);
}

/**
 * Whether every member of an object is an object or an array (`data`, `meta`, `links`): one with a field of its own
 * (`{ name, owner: { id } }`) is a record, not an envelope around its one object member.
 */
export function onlyContainers(shape: ObjectShape): boolean {
  return Object.values(shape.properties).every((member) => {
    const types = schemaTypes(member);
    return types.includes('object') || types.includes('array') || objectShape(member) !== undefined;
  });
}

/**
 * Where a request body carries the record it writes: at its top when the top names a field of the representation,
 * else in the one object member, required or the only member, that names one (`{ data: CustomerInput }`). A member
 * that repeats one of the path's parameters is left out of both: it says which record, as the path does, and is
 * not what is written (`{ slug, article: {...} }` of PUT /articles/{slug}, as protoc-gen-openapi writes a Go body).
 */
export function recordInRequest(
  schema: RawSchema | undefined,
  representation: ObjectShape,
  pathNames: readonly string[] = [],
): RecordPointer {
  const whole = objectShape(schema);
  if (!whole) return BARE;
  const shape = withoutMembers(whole, pathNames);
  const names = (inner: ObjectShape) => Object.keys(inner.properties).some((name) => representation.properties[name]);
  if (names(shape)) return BARE;
  return wrapper(shape, names);
}

function withoutMembers(shape: ObjectShape, names: readonly string[]): ObjectShape {
  if (!names.some((name) => Object.hasOwn(shape.properties, name))) return shape;
  const properties = Object.fromEntries(Object.entries(shape.properties).filter(([name]) => !names.includes(name)));
  return { properties, required: new Set([...shape.required].filter((name) => !names.includes(name))) };
}

function wrapper(shape: ObjectShape, holds: (inner: ObjectShape) => boolean): RecordPointer {
  const members = Object.keys(shape.properties);
  const fitting = members.filter((name) => {
    const inner = envelopedShape(shape.properties[name]);
    return inner !== undefined && holds(inner) && (shape.required.has(name) || members.length === 1);
  });
  return fitting.length === 1 ? [fitting[0] as string] : BARE;
}

// A member that is an object (an array of records is a list, rule 4).
function envelopedShape(schema: RawSchema | undefined): ObjectShape | undefined {
  return schemaTypes(schema).includes('array') ? undefined : objectShape(schema);
}

/** The schema `pointer` leads to through the properties of `schema` (itself for a bare record). */
export function schemaAt(schema: RawSchema | undefined, pointer: RecordPointer): RawSchema | undefined {
  let at = schema;
  for (const name of pointer) at = objectShape(at)?.properties[name];
  return at;
}

/** The record inside `body` at `pointer`, or undefined where the body does not hold one there. */
export function recordAt(body: unknown, pointer: RecordPointer): unknown {
  let at = body;
  for (const name of pointer) {
    if (at === null || typeof at !== 'object' || Array.isArray(at)) return undefined;
    at = Object.hasOwn(at, name) ? (at as Record<string, unknown>)[name] : undefined;
  }
  return at;
}

/**
 * The members an envelope requires beside the record (`meta` of `{ data, meta }`), as valid samples of their schemas,
 * level by level along `pointer`: what a writer puts around the record so that the whole body keeps to the schema.
 */
export function envelopeMembers(schema: RawSchema | undefined, pointer: RecordPointer): Record<string, unknown>[] {
  const levels: Record<string, unknown>[] = [];
  let at = schema;
  for (const name of pointer) {
    const shape = objectShape(at);
    const members: Record<string, unknown> = {};
    for (const required of shape?.required ?? []) {
      if (required !== name) setOwn(members, required, sampleValue(shape?.properties[required] as JsonSchema | undefined));
    }
    levels.push(members);
    at = shape?.properties[name];
  }
  return levels;
}

/** `record` wrapped as `pointer` says, each level with its members beside it (envelopeMembers). */
export function wrapRecord(record: unknown, pointer: RecordPointer, members: readonly Record<string, unknown>[]): unknown {
  let wrapped = record;
  for (let level = pointer.length - 1; level >= 0; level--) {
    const outer: Record<string, unknown> = { ...members[level] };
    setOwn(outer, pointer[level] as string, wrapped);
    wrapped = outer;
  }
  return wrapped;
}

// Filled in by inferResources: the request pointer of every write of a stateful resource, so that whoever samples a
// request body (the runner's cases) samples the record, and the envelope is put around it once, when it is sent.
const requestPointers = new WeakMap<Operation, RecordPointer>();

export function noteRequestPointer(operation: Operation, pointer: RecordPointer): void {
  if (pointer.length > 0) requestPointers.set(operation, pointer);
}

/** Where the operation's request body carries its record, as the resource model found it (bare when unknown). */
export function requestPointerOf(operation: Operation): RecordPointer {
  return requestPointers.get(operation) ?? BARE;
}

/** `record` as the operation's request body carries it: inside its envelope, with the members it requires. */
export function wrapRequest(operation: Operation, record: unknown): unknown {
  const pointer = requestPointerOf(operation);
  if (pointer.length === 0) return record;
  let members = requestMembers.get(operation);
  if (members === undefined) {
    const body = operation.requestBody?.contents.find((c) => isJsonMedia(c.mediaType) && c.schema !== undefined)?.schema;
    members = envelopeMembers(body as RawSchema | undefined, pointer);
    requestMembers.set(operation, members);
  }
  return wrapRecord(record, pointer, members);
}

const requestMembers = new WeakMap<Operation, Record<string, unknown>[]>();
