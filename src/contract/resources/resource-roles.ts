import type { JsonSchema, Operation } from '../operation.js';
import { setOwn } from '../set-own.js';
import { recordAt } from './envelope.js';
import { objectShape, type RawSchema } from './object-shape.js';
import type { Resource, ResourceModel, ResourceOperationKind } from './resource.js';

/** An operation's place in the resource model: the resource it works on, and its CRUD role there. */
export interface ResourceRole {
  readonly resource: Resource;
  readonly kind: ResourceOperationKind;
}

/** Every operation of a resource the model keeps state for (one with an id field), by operationId. */
export function resourceRoles(model: ResourceModel): ReadonlyMap<string, ResourceRole> {
  let roles = known.get(model);
  if (roles) return roles;
  roles = new Map<string, ResourceRole>();
  known.set(model, roles);
  for (const resource of model.resources) {
    if (resource.stateless || !resource.id) continue;
    for (const op of resource.operations) roles.set(op.operationId, { resource, kind: op.kind });
  }
  return roles;
}

// Generators and checks ask for one operation's role at a time: the table is made once per model.
const known = new WeakMap<ResourceModel, Map<string, ResourceRole>>();

/** The operation that plays `kind` for `resource`, as the contract loaded it. */
export function operationOf(
  resource: Resource,
  kind: ResourceOperationKind,
  byId: ReadonlyMap<string, Operation>,
): Operation | undefined {
  const found = resource.operations.find((op) => op.kind === kind);
  return found ? byId.get(found.operationId) : undefined;
}

/** For a create, the operation that plays `kind` for the resource it creates (createPet → listPets). */
export function besideCreate(
  model: ResourceModel,
  create: Operation,
  kind: ResourceOperationKind,
  byId: ReadonlyMap<string, Operation>,
): { readonly resource: Resource; readonly operation: Operation } | undefined {
  const role = resourceRoles(model).get(create.operationId);
  const operation = role?.kind === 'create' ? operationOf(role.resource, kind, byId) : undefined;
  return role && operation ? { resource: role.resource, operation } : undefined;
}

/** The item PUT that makes a record at the id its path names (rule 11, create-or-replace), when there is one. */
export function upsertOf(resource: Resource, byId: ReadonlyMap<string, Operation>): Operation | undefined {
  const found = resource.operations.find((op) => op.creates === true);
  return found ? byId.get(found.operationId) : undefined;
}

/** Whether the API makes records of `resource`: by a create, or by a PUT at an id the client chooses (rule 11). */
export function makesRecords(resource: Resource): boolean {
  return resource.operations.some((op) => op.kind === 'create' || op.creates === true);
}

/** Whether `resource` has an operation in the role `kind`. */
export function hasRole(resource: Resource, kind: ResourceOperationKind): boolean {
  return resource.operations.some((op) => op.kind === kind);
}

/**
 * Whether the service assigns the resource's id (Pet's id, a readOnly `memberId`): only then are two creates
 * held to two ids, and a client-sent id held to being ignored. A client-named id (a book's ISBN) is not.
 */
export function assignsIds(resource: Resource): boolean {
  return resource.id !== undefined && resource.serverFields.includes(resource.id.name);
}

/**
 * Of a record's fields, those a later read must still answer: the ones the representation declares, but not an
 * enum (a status may move on after the create: transitions are not shown).
 */
export function lastingFields(resource: Resource, fields: object): Record<string, unknown> {
  const lasting = lastingNames(resource);
  const kept: Record<string, unknown> = {};
  for (const name of Object.keys(fields)) if (lasting.has(name)) setOwn(kept, name, (fields as Record<string, unknown>)[name]);
  return kept;
}

// Every create a run makes is remembered by its lasting fields: the names are read off the schema once per resource.
const lastingOf = new WeakMap<Resource, ReadonlySet<string>>();

function lastingNames(resource: Resource): ReadonlySet<string> {
  let names = lastingOf.get(resource);
  if (names === undefined) {
    const declared = objectShape(resource.schema)?.properties ?? {};
    names = new Set(Object.keys(declared).filter((name) => declared[name] !== undefined && !declared[name]?.enum));
    lastingOf.set(resource, names);
  }
  return names;
}

/**
 * The field that names a record in a body of `schema`: its first required text field that takes any text (NewPet:
 * name), not one held to a pattern, format, enum or a short maxLength (a client-named id: a SKU `^[A-Z]{3}-[0-9]{6}$`).
 */
export function namingField(schema: RawSchema | JsonSchema | undefined): string | undefined {
  const shape = objectShape(schema);
  return [...(shape?.required ?? [])].find((name) => {
    const property = shape?.properties[name] as JsonSchema | undefined;
    return (
      property?.type === 'string' &&
      property.pattern === undefined &&
      property.format === undefined &&
      !property.enum &&
      (property.maxLength ?? NAME_LENGTH) >= NAME_LENGTH
    );
  });
}

// Room for the marks the runner names records with (resource-marks.ts) and the run's id after a sample.
const NAME_LENGTH = 64;

/**
 * The record an answer of the operation carries: inside the envelope its schema has (docs/reference/resources.md
 * rule 10), else the body itself.
 */
export function answeredRecord(role: ResourceRole | undefined, operationId: string, body: unknown): unknown {
  const pointer = answerPointer(role, operationId);
  return pointer.length === 0 ? body : recordAt(body, pointer);
}

/** Where an answer of the operation carries its record (`['data']`); empty for a bare one. */
export function answerPointer(role: ResourceRole | undefined, operationId: string): readonly string[] {
  return role?.resource.operations.find((op) => op.operationId === operationId)?.answerRecord ?? [];
}

/** The records of a list answer of `resource`: the array its listPointer leads to, or undefined. */
export function listedRecords(resource: Resource, body: unknown): readonly unknown[] | undefined {
  return arrayAt(body, resource.listPointer);
}

/** The array `pointer` leads to in `body` through its objects' members (`['items']`), or undefined. */
export function arrayAt(body: unknown, pointer: readonly string[]): unknown[] | undefined {
  let at = body;
  for (const name of pointer) {
    if (at === null || typeof at !== 'object' || Array.isArray(at)) return undefined;
    at = (at as Record<string, unknown>)[name];
  }
  return Array.isArray(at) ? at : undefined;
}
