import type { Contract } from '../../../contract/load-contract.js';
import type { JsonSchema, Operation, ParameterSpec } from '../../../contract/operation.js';
import { objectShape } from '../../../contract/resources/object-shape.js';
import { pathParameterNames } from '../../../contract/resources/read-path.js';
import { requestSchema } from '../../../contract/resources/representation.js';
import type { Resource, ResourceModel } from '../../../contract/resources/resource.js';
import { operationOf, resourceRoles, upsertOf } from '../../../contract/resources/resource-roles.js';
import { createRandom, type Random } from './create-random.js';
import type { Repeat } from '../scenario.js';
import type { StepSpec } from './make-case.js';
import { successStatuses } from './expected-statuses.js';
import { withFreshKeys } from './fresh-keys.js';
import { sampleValue } from './sample-value.js';

/**
 * Records a case creates for itself, so that every item path it sends carries an id of its own (issue 22: a run
 * writes only to what it created, never to an example id such as 42), parents first.
 */
export interface OwnRecord {
  /** The creates, root first, each captured: `{{<capture>.body.<id>}}` addresses the record. */
  readonly steps: StepSpec[];
  /** The values of the item path's parameters, by position: the parents' ids, then the record's. */
  readonly values: readonly string[];
  /** The body the record's own create sent. */
  readonly body: Record<string, unknown>;
  readonly capture: string;
  /**
   * The ids the run drew for records it makes by a PUT at an id of its choosing (rule 11), parents first: literal
   * in `values`, so a case that reuses the record draws them again (effects.ts) and no two cases share one.
   */
  readonly drawn: readonly DrawnId[];
  /** The values drawn for the path parameters no record names (freeValues), which a case may draw again. */
  readonly free: readonly DrawnId[];
}

/** An id the run chose for a PUT that creates, as its path carries it, and the schema of that path parameter. */
export interface DrawnId {
  readonly value: string;
  readonly schema: JsonSchema;
}

/** The id as a record holds it: a number where the path parameter is one (rule 5: it then carries integer ids). */
export function heldId(schema: JsonSchema, value: string): unknown {
  return schema.type === 'integer' || schema.type === 'number' ? Number(value) : value;
}

/** Path parameters of `operation` filled by position from `values` (parents first, names may differ per path). */
export function pathParams(operation: Operation, values: readonly string[]): Record<string, string> {
  const names = operation.parameters.filter((p) => p.in === 'path').map((p) => p.name);
  const ordered = [...operation.path.matchAll(/\{([^}]+)\}/g)].map((m) => m[1] as string).filter((n) => names.includes(n));
  return Object.fromEntries(ordered.map((name, i) => [name, values[i] as string]));
}

/**
 * Creates for `resource` and every parent it is nested under, or why none can be made: a level without a create
 * or without an id field leaves no value to put in the path (the case is then not made, and said so). The values
 * of the free parameters before them are `free`, else freeValues'.
 */
export function ownRecord(
  resource: Resource,
  model: ResourceModel,
  contract: Contract,
  random: Random,
  capture: string,
  free?: readonly string[],
): OwnRecord | { readonly reason: string } {
  const chain: Resource[] = [];
  for (let at: Resource | undefined = resource; at; ) {
    chain.unshift(at);
    const parentKey: string | undefined = at.parent;
    at = parentKey === undefined ? undefined : model.resources.find((r) => r.key === parentKey);
    if (parentKey !== undefined && !at) return { reason: `its parent ${parentKey} is no resource the run can create` };
  }
  const steps: StepSpec[] = [];
  const root = chain[0] as Resource;
  const rootWrite = operationOf(root, 'create', contract.byId) ?? upsertOf(root, contract.byId);
  const leading = rootWrite ? freeParameters(root, model, rootWrite) : [];
  const values: string[] = [...(free ?? freeValues(leading, random))];
  // Those not the contract's example are the case's own: effects cases draw them again (effects-own-ids.ts).
  const freeDrawn = leading.flatMap((p, i) => (given(p.schema) ? [] : [{ value: values[i] as string, schema: p.schema }]));
  const drawn: DrawnId[] = [];
  let body: Record<string, unknown> = {};
  for (const [i, level] of chain.entries()) {
    if (level.stateless || !level.id)
      return { reason: `${level.collectionPath} keeps no state (${level.stateless ?? 'no id field'})` };
    const name = i === chain.length - 1 ? capture : `${capture}-parent${i}`;
    const put = upsertOf(level, contract.byId);
    if (put) {
      const made = putAtOwnId(model, level, put, values, random);
      if ('reason' in made) return made;
      steps.push({ ...made.step, capture: name, setup: i < chain.length - 1 });
      values.push(made.id.value);
      drawn.push(made.id);
      body = made.body;
      continue;
    }
    const create = operationOf(level, 'create', contract.byId);
    if (!create) {
      // rule 11: a PUT that documents 404 and no 201, or a readOnly id, only replaces what is there.
      const put = level.operations.some((op) => op.kind === 'replace') ? ' and its PUT only replaces (rule 11)' : '';
      return { reason: `${level.collectionPath} has no create${put}, so no record of the run's own can be addressed` };
    }
    body = createBody(model, level, create, random);
    steps.push({
      operation: create,
      params: pathParams(create, values),
      body: { kind: 'json', value: body },
      capture: name,
      setup: i < chain.length - 1,
      expect: { status: successStatuses(create) },
    });
    values.push(`{{${name}.body.${level.id.name}}}`);
  }
  return { steps, values, body, capture, drawn, free: freeDrawn };
}

/**
 * The PUT that makes a record of the run's own at an id the run drew from the item parameter's schema (rule 11),
 * never its example: the body names that id where it carries the id field. Or why no such id can be drawn.
 */
export function putAtOwnId(
  model: ResourceModel,
  resource: Resource,
  put: Operation,
  parents: readonly string[],
  random: Random,
): { readonly step: StepSpec; readonly id: DrawnId; readonly body: Record<string, unknown> } | { readonly reason: string } {
  const parameter = put.parameters.find((p) => p.in === 'path' && p.name === put.path.match(/\{([^}]+)\}$/)?.[1]);
  if (!parameter) return { reason: `${put.operationId} names no path parameter for the id` };
  const value = freshId(parameter.schema, random);
  if (value === sampleValue(parameter.schema))
    return {
      reason: `no ${parameter.name} other than its example could be drawn within its schema, and the run writes only at ids of its own`,
    };
  const id = { value: String(value), schema: parameter.schema };
  const body = createBody(model, resource, put, random);
  const field = (resource.id as NonNullable<Resource['id']>).name;
  if (objectShape(requestSchema(put))?.properties[field]) body[field] = value;
  const step: StepSpec = {
    operation: put,
    params: pathParams(put, [...parents, id.value]),
    body: { kind: 'json', value: body },
    expect: { status: successStatuses(put), creates: true },
  };
  return { step, id, body };
}

/** The resource at the top of `resource`'s parents: its collection path starts every path of the chain. */
export function rootOf(resource: Resource, model: ResourceModel): Resource {
  let root = resource;
  for (let at: Resource | undefined = resource; at; at = model.resources.find((r) => r.key === at?.parent)) root = at;
  return root;
}

/**
 * The leading path parameters of `operation` that no record of the contract names (`owner` and `repo` of
 * `/repos/{owner}/{repo}/issues` where nothing is addressed by `/repos/{owner}/{repo}`): those of the collection path
 * of the root of `resource`'s parents.
 */
export function freeParameters(resource: Resource, model: ResourceModel, operation: Operation): ParameterSpec[] {
  const count = pathParameterNames(rootOf(resource, model).collectionPath).length;
  const byName = new Map(operation.parameters.filter((p) => p.in === 'path').map((p) => [p.name, p]));
  return pathParameterNames(operation.path)
    .slice(0, count)
    .flatMap((name) => byName.get(name) ?? []);
}

/**
 * A value for each free parameter: the contract's example where it gives one (how a contract names an owner that is
 * there: every case then shares it), else one drawn for the case within the schema, so that what a case lists under
 * it is its own records alone (another case's could push its record off the first page).
 */
export function freeValues(parameters: readonly ParameterSpec[], random: Random): string[] {
  return parameters.map(({ schema }) => (given(schema) ? String(sampleValue(schema)) : freeValue(schema, random)));
}

/** Whether the contract gives the parameter's value: an example, which every case then shares. */
export function given(schema: JsonSchema): boolean {
  return schema.example !== undefined || ((schema as { examples?: unknown[] }).examples?.length ?? 0) > 0;
}

/** A value of a free parameter drawn within its schema: a word where the schema takes one, else a fresh id. */
export function freeValue(schema: JsonSchema, random: Random): string {
  const word = `r${random.text(9, `${LOWER}${DIGITS}`)}`;
  if (schema.type === 'string' && schema.format === undefined && fits(schema, word)) return word;
  const drawn = freshId(schema, random);
  const number = typeof drawn === 'number';
  const within = !number || ((schema.minimum ?? drawn) <= drawn && drawn <= (schema.maximum ?? drawn));
  return String(within && (number || fits(schema, String(drawn))) ? drawn : sampleValue(schema));
}

/**
 * Whether a read's path can name records a case creates for itself: the operation plays a role for a resource that,
 * with every parent, the run can create. Such a read leaves its path to bind-own-records.ts; another keeps the
 * contract's example ids, which may answer the documented 404.
 */
export function readsOwnRecords(operation: Operation, model: ResourceModel, contract: Contract): boolean {
  const role = resourceRoles(model).get(operation.operationId);
  return role !== undefined && !('reason' in ownRecord(role.resource, model, contract, createRandom(0), 'own'));
}

/**
 * A valid create body (every optional field too unless `withOptional` is false), without the fields the server sets
 * (a readOnly id), with a fresh id where the client names it (a book's ISBN) and fresh unique keys (an email).
 */
export function createBody(
  model: ResourceModel,
  resource: Resource,
  create: Operation,
  random: Random,
  withOptional = true,
): Record<string, unknown> {
  const schema = requestSchema(create);
  const body = { ...((sampleValue(schema, withOptional) ?? {}) as Record<string, unknown>) };
  for (const name of resource.serverFields) delete body[name];
  return withFreshValues(model, resource, create, body, random);
}

/**
 * `body` as one create of its own sends it: with a fresh id where the client names it and the create's body carries
 * it (a book's ISBN), and fresh values in the fields likely to be unique keys (fresh-keys.ts). Two creates of the
 * same sample would otherwise name one record, or share an email, and the second be refused as taken.
 */
export function withFreshValues<T>(model: ResourceModel, resource: Resource, create: Operation, body: T, random: Random): T {
  return withFreshKeys(model, create, withFreshId(resource, create, body, random), random);
}

function withFreshId<T>(resource: Resource, create: Operation, body: T, random: Random): T {
  const id = resource.id;
  if (!id || !sendsOwnId(resource, create)) return body;
  if (body === null || typeof body !== 'object' || Array.isArray(body)) return body;
  return { ...body, [id.name]: freshId(id.schema, random) };
}

/** Whether the client names the record's id in the create's body (a book's ISBN): each create needs one of its own. */
export function sendsOwnId(resource: Resource, create: Operation): boolean {
  const id = resource.id;
  return (
    id !== undefined && !resource.serverFields.includes(id.name) && !!objectShape(requestSchema(create))?.properties[id.name]
  );
}

/**
 * A create of one body repeated `count` times, each with a fresh id where the client names it and fresh unique keys
 * (`{{repeat.each}}`): otherwise the one body, so a repeat that varies nothing is built once.
 */
export function repeatedCreate(
  model: ResourceModel,
  resource: Resource,
  create: Operation,
  body: Record<string, unknown>,
  count: number,
  random: Random,
): { readonly body: NonNullable<StepSpec['body']>; readonly repeat: Repeat } {
  const each = Array.from({ length: count }, () => withFreshValues(model, resource, create, body, random));
  if (each.every((one) => one === body)) return { body: { kind: 'json', value: body }, repeat: { count } };
  return { body: { kind: 'json', value: '{{repeat.each}}' }, repeat: { count, each } };
}

// A value no earlier run is likely to have taken, within the id's schema where it can tell: thirteen digits (an
// ISBN), else the contract's example with each digit and letter drawn again (`ABC-123456` → `QZK-804113`).
export function freshId(schema: JsonSchema, random: Random): unknown {
  if (schema.type === 'integer' || schema.type === 'number') return 1_000_000 + random.below(1_000_000_000);
  if (schema.format === 'uuid')
    return `${random.text(8, HEX)}-${random.text(4, HEX)}-4${random.text(3, HEX)}-8${random.text(3, HEX)}-${random.text(12, HEX)}`;
  const digits = `978${random.text(10, DIGITS)}`;
  if (fits(schema, digits)) return digits;
  return redrawn(schema, random) ?? sampleValue(schema);
}

/** The schema's sample with its digits and letters drawn again, still within the schema, or undefined when none fits. */
function redrawn(schema: JsonSchema, random: Random): string | undefined {
  const sample = sampleValue(schema);
  for (let tries = 0; tries < REDRAWS && typeof sample === 'string'; tries++) {
    const digitsDrawn = sample.replace(/[0-9]/g, () => random.text(1, DIGITS));
    const drawn =
      tries % 2 === 1
        ? digitsDrawn
        : digitsDrawn.replace(/[a-z]/g, () => random.text(1, LOWER)).replace(/[A-Z]/g, () => random.text(1, UPPER));
    if (drawn !== sample && fits(schema, drawn)) return drawn;
  }
  return undefined;
}

function fits(schema: JsonSchema, text: string): boolean {
  const pattern = typeof schema.pattern === 'string' ? safeRegExp(schema.pattern) : undefined;
  return (
    (schema.pattern === undefined || pattern?.test(text) === true) &&
    text.length >= (schema.minLength ?? 0) &&
    text.length <= (schema.maxLength ?? Number.POSITIVE_INFINITY)
  );
}

// Letters are drawn again too (`WH01` has few digits to vary), and digits alone where a pattern fixes the letters
// (`^SKU-[0-9]+$`).
const REDRAWS = 16;
const HEX = '0123456789abcdef';
const DIGITS = '0123456789';
const LOWER = 'abcdefghijklmnopqrstuvwxyz';
const UPPER = LOWER.toUpperCase();

function safeRegExp(source: string): RegExp | undefined {
  try {
    return new RegExp(source, 'u');
  } catch {
    return undefined;
  }
}

/**
 * An id no record is likely to have, within the parameter's schema where it can tell: under a pattern, the sample
 * drawn again within it (a router may answer a value outside it 404 before auth). Where no drawing fits, the sample
 * itself, which a case of the run's own binds to its own record (bind-own-records.ts).
 */
export function absentValue(schema: JsonSchema, random: Random): unknown {
  if (schema.type === 'integer' || schema.type === 'number') return Number(`8${random.text(15, '0123456789')}`);
  if (schema.format === 'uuid') return `00000000-0000-4000-8000-${random.text(12, '0123456789abcdef')}`;
  if (schema.pattern === undefined) return `absent-${random.text(12)}`;
  return redrawn(schema, random) ?? sampleValue(schema);
}
