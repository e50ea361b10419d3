import type { Validator } from '../../contract/compile-schema.js';
import { describeIssues } from '../../contract/compile-schema.js';
import { isJsonMedia } from '../../contract/find-response.js';
import type { Contract } from '../../contract/load-contract.js';
import { parseJson, stringifyJson } from '../../contract/lossless-json.js';
import type { Operation } from '../../contract/operation.js';
import { inferResources } from '../../contract/resources/infer-resources.js';
import { objectShape, type RawSchema } from '../../contract/resources/object-shape.js';
import { pathParameterNames } from '../../contract/resources/read-path.js';
import { requestBodySchema } from '../../contract/resources/representation.js';
import type { Resource, Singleton, SingletonOperationKind } from '../../contract/resources/resource.js';
import { sampleValue } from '../../contract/sample-value.js';
import type { RequestInput } from '../connection/read-request.js';
import { mockError } from '../error-codes.js';
import type { Handler, HandlerContext } from '../handler.js';
import { mergePatch } from '../store/merge-patch.js';
import { scopeOf } from '../store/resource-stores.js';
import { checkParents, idReader, replyOf, type ResourceHandler } from './resource-handlers.js';

/**
 * The handlers of every single record (docs/reference/resources.md rule 12) at the top or under a served resource,
 * by operationId: GET answers the record as it is, PUT replaces it, PATCH merges into it (RFC 7396). A record
 * starts as the GET's example (a valid sample without one), in every store, and is held only once written.
 */
export function singletonHandlers(contract: Contract, served: readonly Resource[]): Map<string, ResourceHandler> {
  const handlers = new Map<string, ResourceHandler>();
  for (const singleton of inferResources(contract).singletons ?? []) {
    const parent = served.find((r) => r.key === singleton.parent);
    const record = singleton.parent === undefined || parent ? recordOf(singleton, contract) : undefined;
    if (record === undefined) continue;
    for (const op of singleton.operations) {
      const operation = contract.byId.get(op.operationId);
      if (!operation) continue;
      handlers.set(op.operationId, { handler: KINDS[op.kind](record, operation, parent), writes: op.kind !== 'get' });
    }
  }
  return handlers;
}

/** How one single record is read and checked: its seed, its validator, the fields the server keeps. */
interface RecordPlan {
  readonly singleton: Singleton;
  readonly seed: string;
  readonly validate: Validator;
  /** readOnly fields: a write never sets them, the record keeps its own. */
  readonly serverFields: readonly string[];
}

function recordOf(singleton: Singleton, contract: Contract): RecordPlan | undefined {
  const get = contract.byId.get(singleton.operations[0]?.operationId as string);
  const media = get?.responses
    .filter((r) => /^2\d\d$/.test(r.code))
    .sort((a, b) => a.code.localeCompare(b.code))
    .flatMap((r) => r.contents)
    .find((c) => isJsonMedia(c.mediaType) && c.validate !== undefined);
  const validate = media?.validate;
  if (!media || !validate) return undefined;
  const seed = media.example !== undefined && validate(media.example).length === 0 ? media.example : sampleValue(media.schema);
  if (validate(seed).length > 0) return undefined;
  const properties = objectShape(singleton.schema)?.properties ?? {};
  const serverFields = Object.keys(properties).filter((name) => (properties[name] as RawSchema).readOnly === true);
  return { singleton, seed: stringifyJson(seed), validate, serverFields };
}

type MakeHandler = (plan: RecordPlan, operation: Operation, parent: Resource | undefined) => Handler;

const KINDS: Readonly<Record<SingletonOperationKind, MakeHandler>> = {
  get: (plan, operation, parent) => {
    const reply = replyOf(operation, 200);
    return (input, context) => ({ status: reply.status, body: held(plan, parent, input, context).json });
  },
  replace: (plan, operation, parent) => write(plan, operation, parent, (_, sent) => sent),
  'merge-patch': (plan, operation, parent) => write(plan, operation, parent, mergePatch),
};

// A PUT or PATCH: the new record from the one held and the body, without writeOnly fields, with the server's own
// fields as held, checked against the GET's schema (a PATCH that nulls a required field is refused), then held.
function write(
  plan: RecordPlan,
  operation: Operation,
  parent: Resource | undefined,
  change: (old: unknown, sent: unknown) => unknown,
): Handler {
  const reply = replyOf(operation, 200);
  const hidden = writeOnlyOf(operation);
  return (input, context) => {
    const { json, scope } = held(plan, parent, input, context);
    const old = parseJson(json) as unknown as Record<string, unknown>;
    const record = { ...(change(old, input.body) as Record<string, unknown>) };
    for (const name of hidden) delete record[name];
    for (const name of plan.serverFields) {
      if (old[name] === undefined) delete record[name];
      else record[name] = old[name];
    }
    const issues = plan.validate(record, 'body');
    if (issues.length > 0) throw mockError('validation_failed', `the record would not be valid: ${describeIssues(issues)}`);
    const text = stringifyJson(record);
    context.resources.singletons.set(plan.singleton.key, plan.singleton.parent, scope, text);
    return { status: reply.status, body: reply.empty ? '' : text };
  };
}

// The record as this store holds it, after its parent is found (a 404 for a parent no one has).
function held(plan: RecordPlan, parent: Resource | undefined, input: RequestInput, context: HandlerContext) {
  const scope = parent === undefined ? undefined : parentScope(plan, parent, input, context);
  const json = context.resources.singletons.get(plan.singleton.key, plan.singleton.parent, scope) ?? plan.seed;
  return { json, scope };
}

function parentScope(plan: RecordPlan, parent: Resource, input: RequestInput, context: HandlerContext): string {
  const toId = idReader(parent);
  const ids = pathParameterNames(plan.singleton.path).map((name) => {
    const value = input.path[name];
    const id = toId(value);
    if (id === undefined) throw mockError('record_not_found', `no record of ${parent.key} has id ${String(value).slice(0, 80)}`);
    return id;
  });
  checkParents({ parent: parent.key }, ids, context);
  return scopeOf(ids) as string;
}

function writeOnlyOf(operation: Operation): readonly string[] {
  const properties = objectShape(requestBodySchema(operation))?.properties ?? {};
  return Object.keys(properties).filter((name) => (properties[name] as RawSchema).writeOnly === true);
}
