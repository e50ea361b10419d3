import { isDeepStrictEqual } from 'node:util';
import type { Contract } from '../../../contract/load-contract.js';
import { type JsonValue, parseJson, stringifyJson } from '../../../contract/lossless-json.js';
import type { JsonSchema, Operation } from '../../../contract/operation.js';
import { eraseParameters, pathParameterNames } from '../../../contract/resources/read-path.js';
import { referencedResource } from '../../../contract/resources/referenced-resource.js';
import { recordIn, requestBodySchema, requestSchema } from '../../../contract/resources/representation.js';
import { resourceRoles } from '../../../contract/resources/resource-roles.js';
import type { Resource, ResourceModel } from '../../../contract/resources/resource.js';
import type { Scenario, Step } from '../scenario.js';
import type { Random } from './create-random.js';
import { makeCase, type StepSpec } from './make-case.js';
import { referencePlaceholders } from './reference-placeholders.js';
import { absentValue, freeParameters, freeValues, ownRecord, pathParams, rootOf } from './own-records.js';
import { sampleValue } from './sample-value.js';

// RFC 9110 §9.2.1: only these leave the target as it was; any other method may change the record it addresses.
const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/** A case kept with its steps bound to records of its own, or the reason it could not be made, and where. */
export type Bound = { readonly scenario: Scenario } | { readonly reason: string; readonly operationId: string };

/**
 * Gives every step that would address a record by a placeholder (no value at all, or the parameter's example such
 * as 42 in a PUT or DELETE) a record of the case's own: its create (parents first) goes before the case's steps,
 * and the path takes the captured ids. A run thus writes only to what it created (issue 22), and no URL carries
 * `undefined`. Values a kind chose on purpose (an invalid one, an id no record has) are left as they are; so are
 * reads by an example id, which change nothing and may answer the documented 404.
 */
export function bindOwnRecords(scenario: Scenario, model: ResourceModel, contract: Contract, random: Random): Bound {
  const prefix: StepSpec[] = [];
  const bound = new Map<string, readonly string[]>();
  const steps: Step[] = [];
  // The values of the free path parameters (own-records.ts) by the key of the root resource: one set for the case.
  const freeByRoot = new Map<string, readonly string[]>();
  const freeOf = (resource: Resource, operation: Operation) => {
    const parameters = freeParameters(resource, model, operation);
    const key = rootOf(resource, model).key;
    const values = freeByRoot.get(key) ?? freeValues(parameters, random);
    freeByRoot.set(key, values);
    return parameters.map((p, i): [string, string] => [p.name, values[i] as string]);
  };
  for (const sent of scenario.steps) {
    const role = resourceRoles(model).get(sent.operation.operationId);
    const unset = new Set(placeholders(sent));
    const free = role ? freeOf(role.resource, sent.operation).filter(([name]) => unset.has(name)) : [];
    const step = free.length === 0 ? sent : { ...sent, path: { ...sent.path, ...Object.fromEntries(free) }, templated: true };
    const unbound = placeholders(step).filter((name) => !free.some(([given]) => given === name));
    if (unbound.length === 0) {
      steps.push(absentIds(step, random));
      continue;
    }
    const addressed = addressedResource(model, step.operation, unbound);
    if (!addressed)
      return {
        operationId: step.operation.operationId,
        reason: `no resource of the contract is addressed by ${step.operation.path}, so ${unbound.join(', ')} has no value`,
      };
    let values = bound.get(addressed.key);
    if (!values) {
      const root = rootOf(addressed, model);
      const own = ownRecord(addressed, model, contract, random, `bound${bound.size}`, freeByRoot.get(root.key));
      if ('reason' in own)
        return {
          operationId: step.operation.operationId,
          reason: `${unbound.join(', ')} of ${step.operation.operationId}: ${own.reason}`,
        };
      freeByRoot.set(root.key, own.values.slice(0, pathParameterNames(root.collectionPath).length));
      prefix.push(...own.steps.map((s) => ({ ...s, setup: true })));
      values = own.values;
      bound.set(addressed.key, values);
    }
    const own = pathParams(step.operation, values);
    steps.push({
      ...identified(step, addressed, own),
      path: { ...step.path, ...Object.fromEntries(unbound.map((name) => [name, own[name]])) },
      templated: true,
    });
  }
  // A body field that refers to another resource's records (an order's petId) and holds its placeholder names a
  // record of the case's own too: a server that checks the referenced record exists would refuse the sample. So do
  // the creates of the case's own records (an order of its own for a DELETE), and of those records in turn (an
  // order item's order, that order's pet). Each record goes before what refers to it.
  const references = new Map<string, Reference>();
  const referenced: StepSpec[] = [];
  const scanned: (Step | StepSpec)[] = [...prefix, ...steps];
  // The loop reaches the creates it appends too: a record of the case's own may refer to another.
  for (const { operation, body, repeat } of scanned) {
    const sent = sentObject(body) ?? objectOf(repeat?.each?.[0]);
    if (!sent || SAFE_METHODS.has(operation.method)) continue;
    const from = resourceRoles(model).get(operation.operationId)?.resource;
    for (const [field, schema] of Object.entries(requestSchema(operation)?.properties ?? {})) {
      const resource = referencedResource(model, field, from, schema);
      const slot = resource
        ? referencePlaceholders(schema).findIndex((placeholder) => isDeepStrictEqual(sent[field], placeholder))
        : -1;
      if (!resource || slot === -1 || references.has(`${field}#${slot}`)) continue;
      // The first placeholder shares a record the case's paths address; a second is a record of its own.
      const key = slot === 0 ? resource.key : `${resource.key}#${slot}`;
      let values = bound.get(key);
      if (!values) {
        const own = ownRecord(resource, model, contract, random, `bound${bound.size}`);
        // No record of its own can be made: the sample stays, and a server that checks it may refuse it.
        if ('reason' in own) continue;
        const creates = own.steps.map((step) => ({ ...step, setup: true }));
        referenced.unshift(...creates);
        scanned.push(...creates);
        values = own.values;
        bound.set(key, values);
      }
      references.set(`${field}#${slot}`, { field, template: values.at(-1) as string, sample: sent[field] });
    }
  }
  if (references.size > 0)
    prefix.splice(0, prefix.length, ...[...referenced, ...prefix].map((spec) => withReferences(spec, references)));
  const referring = references.size === 0 ? steps : steps.map((step) => withReferences(step, references));
  if (prefix.length === 0) return { scenario: { ...scenario, steps: referring } };
  const remade = makeCase({
    kind: scenario.kind as string,
    id: scenario.id.slice((scenario.kind as string).length + 1),
    name: scenario.name,
    description: scenario.description,
    steps: prefix,
    tags: scenario.tags.filter((tag) => tag !== 'read-only'),
    connection: scenario.connection,
  });
  const setup = remade.steps;
  return {
    scenario: {
      ...remade,
      tags: [...new Set([...remade.tags.filter((tag) => tag !== 'read-only'), 'mutating'])],
      steps: [...setup, ...referring.map((step, i) => ({ ...step, index: setup.length + i + 1 }))],
    },
  };
}

/**
 * The step with each referring field's sample value replaced by the captured id of the case's own record: in the
 * body it sends, in the body it expects back, and in a query parameter of the field's name (a list filtered by it).
 */
function withReferences<T extends Step | StepSpec>(step: T, references: ReadonlyMap<string, Reference>): T {
  const replaced = (value: Record<string, unknown> | undefined, same: (held: unknown, sample: unknown) => boolean) => {
    let out: Record<string, unknown> | undefined;
    for (const { field, template, sample } of references.values()) {
      if (value && Object.hasOwn(value, field) && same(value[field], sample)) {
        out ??= { ...value };
        out[field] = template;
      }
    }
    return out;
  };
  const json = step.body?.kind === 'json' ? replaced(objectOf(step.body.value), isDeepStrictEqual) : undefined;
  // A repeat that sends a body of its own each time (fresh unique keys): each refers to the same records.
  const eachBody = step.repeat?.each?.map((one) => replaced(objectOf(one), isDeepStrictEqual) ?? one);
  const repeated = eachBody?.some((one, i) => one !== step.repeat?.each?.[i]) ? eachBody : undefined;
  const raw = step.body?.kind === 'raw' ? rawWithReferences(step.body.text, references) : undefined;
  const body: Step['body'] = json ? { kind: 'json', value: json } : raw === undefined ? undefined : { kind: 'raw', text: raw };
  const query = replaced(objectOf(step.query), (held, sample) => String(held) === String(sample));
  // Every record the step expects to see: the answer, each listed item, the one a list must hold, an effect's.
  const was = step.expect;
  const expected = (value: unknown) => replaced(objectOf(value), isDeepStrictEqual);
  const expectBody = expected(was?.body);
  const each = expected(was?.bodyEach);
  const includes = was?.bodyIncludes && expected(was.bodyIncludes.item);
  const effect = was?.effect && expected(was.effect.body);
  const expect =
    expectBody || each || includes || effect
      ? {
          ...was,
          ...(expectBody ? { body: expectBody } : {}),
          ...(each ? { bodyEach: each } : {}),
          ...(includes ? { bodyIncludes: { ...was?.bodyIncludes, item: includes } } : {}),
          ...(effect ? { effect: { ...was?.effect, body: effect } } : {}),
        }
      : undefined;
  if (!body && !expect && !query && !repeated) return step;
  return {
    ...step,
    ...(repeated ? { repeat: { ...(step.repeat as NonNullable<Step['repeat']>), each: repeated } } : {}),
    ...(body ? { body } : {}),
    ...(expect ? { expect } : {}),
    ...(query ? { query } : {}),
    ...('templated' in step ? { templated: true } : {}),
  };
}

/** A field that refers to another resource: the captured id of the case's own record, for the sample it replaces. */
interface Reference {
  readonly field: string;
  readonly template: string;
  readonly sample: unknown;
}

/** What a write sends, as an object: a JSON body, or raw text that is a JSON object (a media-type case's). */
function sentObject(body: Step['body']): Record<string, unknown> | undefined {
  if (body?.kind === 'json') return objectOf(body.value);
  if (body?.kind !== 'raw') return undefined;
  try {
    return objectOf(parseJson(body.text));
  } catch {
    return undefined;
  }
}

/**
 * Raw JSON text with each referring field's placeholder replaced by its template, written in place so that the
 * filled-in id keeps its type: `"petId":{{bound0.body.id}}` for a number, quoted for a string. Undefined when the
 * text is no JSON object or holds no placeholder.
 */
function rawWithReferences(text: string, references: ReadonlyMap<string, Reference>): string | undefined {
  const sent = sentObject({ kind: 'raw', text });
  if (!sent) return undefined;
  const out = { ...sent };
  const marks: [string, string][] = [];
  for (const { field, template, sample } of references.values()) {
    if (!Object.hasOwn(sent, field) || !isDeepStrictEqual(sent[field], sample)) continue;
    const mark = `bindOwnRecords reference ${marks.length}`;
    out[field] = mark;
    marks.push([JSON.stringify(mark), typeof sample === 'string' ? JSON.stringify(template) : template]);
  }
  if (marks.length === 0) return undefined;
  let written = stringifyJson(out as JsonValue);
  for (const [mark, template] of marks) written = written.replace(mark, template);
  return written;
}

/**
 * A write to an item whose body must carry the item's id (JSON:API's PATCH `data.id`) carries the one its path
 * names: a sample id is another record's, which a server may refuse with 409. Only an id the schema takes is
 * replaced, so a case that spoils it on purpose (missing, null, a number, past its pattern or length) keeps it.
 */
function identified(step: Step, addressed: Resource, path: Readonly<Record<string, string>>): Step {
  const name = addressed.id?.name;
  const param = pathParameterNames(step.operation.path).at(-1);
  const item = addressed.itemPath !== undefined && eraseParameters(addressed.itemPath) === eraseParameters(step.operation.path);
  const value = param === undefined ? undefined : path[param];
  if (!item || name === undefined || value === undefined || SAFE_METHODS.has(step.operation.method) || step.body?.kind !== 'json')
    return step;
  // The record is the body, or sits in a lone `data`-style wrapper the resource model did not unwrap (an operation
  // it could not place, such as a PATCH sent as application/vnd.api+json).
  const own = requestSchema(step.operation);
  const found = own?.required?.includes(name) ? { schema: own, pointer: [] } : recordIn(requestBodySchema(step.operation));
  const schema = found?.schema as JsonSchema | undefined;
  if (!found || !schema?.required?.includes(name) || schema.properties?.[name]?.type !== 'string') return step;
  const placed = (at: unknown, pointer: readonly string[]): unknown => {
    const record = objectOf(at);
    if (!record) return at;
    const [first, ...rest] = pointer;
    if (first !== undefined) return { ...record, [first]: placed(record[first], rest) };
    return fits(record[name], schema.properties?.[name]) ? { ...record, [name]: value } : record;
  };
  return { ...step, body: { kind: 'json', value: placed(step.body.value, found.pointer) } };
}

function fits(value: unknown, schema: JsonSchema | undefined): boolean {
  if (typeof value !== 'string') return false;
  if (schema?.minLength !== undefined && value.length < schema.minLength) return false;
  if (schema?.maxLength !== undefined && value.length > schema.maxLength) return false;
  return schema?.pattern === undefined || new RegExp(schema.pattern, 'u').test(value);
}

function objectOf(value: unknown): Record<string, unknown> | undefined {
  return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
}

/**
 * A read sent without valid credentials names a record no one is likely to have rather than the example id (42):
 * what it may reveal is nothing, and the case stays read-only. The answer it must get, 401, does not depend on it.
 */
function absentIds(step: Step, random: Random): Step {
  if (step.auth === 'default' || !SAFE_METHODS.has(step.operation.method) || step.templated) return step;
  const path = { ...step.path };
  for (const parameter of step.operation.parameters.filter(
    (p) => p.in === 'path' && isDeepStrictEqual(path[p.name], sampleValue(p.schema)),
  )) {
    path[parameter.name] = absentValue(parameter.schema, random);
  }
  return { ...step, path };
}

function placeholders(step: Step): string[] {
  const writes = !SAFE_METHODS.has(step.operation.method);
  return step.operation.parameters
    .filter((p) => p.in === 'path')
    .filter((p) => {
      const value = step.path[p.name];
      if (value === undefined || value === null) return true;
      return writes && isDeepStrictEqual(value, sampleValue(p.schema));
    })
    .map((p) => p.name);
}

/**
 * The resource whose records the unbound parameters name: its item path's (PUT /pets/{petId}, or a POST on it that
 * is not CRUD), or its parent's when only the parents' ids are missing: a nested collection
 * (POST /authors/{authorId}/books), or an item read whose own id a case captured (GET /authors/{authorId}/books/{isbn}
 * after the create), which then reads under the same parent the create was sent to.
 */
function addressedResource(model: ResourceModel, operation: Operation, unbound: readonly string[]): Resource | undefined {
  const erased = eraseParameters(operation.path);
  const usable = model.resources.filter((r) => !r.stateless && r.id);
  const item = usable.find((r) => r.itemPath !== undefined && eraseParameters(r.itemPath) === erased);
  if (item && unbound.includes(pathParameterNames(operation.path).at(-1) as string)) return item;
  const parent = item?.parent ?? model.resources.find((r) => eraseParameters(r.collectionPath) === erased)?.parent;
  return parent === undefined ? undefined : usable.find((r) => r.key === parent);
}
