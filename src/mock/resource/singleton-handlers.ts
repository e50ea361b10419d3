import { describeIssues } from '../../contract/compile-schema.js';
import type { Contract } from '../../contract/load-contract.js';
import { parseJson, stringifyJson } from '../../contract/lossless-json.js';
import type { Operation } from '../../contract/operation.js';
import { objectShape, type RawSchema } from '../../contract/resources/object-shape.js';
import { pathParameterNames } from '../../contract/resources/read-path.js';
import { requestBodySchema } from '../../contract/resources/representation.js';
import type { Resource, SingletonOperationKind } from '../../contract/resources/resource.js';
import type { RequestInput } from '../connection/read-request.js';
import { mockError } from '../error-codes.js';
import type { Handler, HandlerContext } from '../handler.js';
import { mergePatch } from '../store/merge-patch.js';
import { type ResourceStores, scopeOf } from '../store/resource-stores.js';
import { checkParents, idReader, replyOf, type ResourceHandler } from './resource-handlers.js';
import type { SingletonPlan } from './singleton-plans.js';

/**
 * The handlers of every single record (docs/reference/resources.md rule 12) at the top or under a served resource,
 * by operationId: GET answers the record as it is, PUT replaces it, PATCH merges into it (RFC 7396). A record
 * starts as the GET's example (a valid sample without one), in every store, and is held only once written.
 */
export function singletonHandlers(contract: Contract, plans: ReadonlyMap<string, SingletonPlan>): Map<string, ResourceHandler> {
  const handlers = new Map<string, ResourceHandler>();
  for (const plan of plans.values()) {
    for (const op of plan.singleton.operations) {
      const operation = contract.byId.get(op.operationId);
      if (!operation) continue;
      handlers.set(op.operationId, { handler: KINDS[op.kind](plan, operation, plan.parent), writes: op.kind !== 'get' });
    }
  }
  return handlers;
}

type MakeHandler = (plan: SingletonPlan, operation: Operation, parent: Resource | undefined) => Handler;

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
  plan: SingletonPlan,
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
function held(plan: SingletonPlan, parent: Resource | undefined, input: RequestInput, context: HandlerContext) {
  const scope = parent === undefined ? undefined : parentScope(plan, parent, input.path, context.resources);
  const json = context.resources.singletons.get(plan.singleton.key, plan.singleton.parent, scope) ?? plan.seed;
  return { json, scope };
}

/**
 * The scope of the parent record a single record under `parent` hangs under, from the path's values (a request's,
 * an admin path's); 404 record_not_found when the store has no such parent.
 */
export function parentScope(
  plan: SingletonPlan,
  parent: Resource,
  values: Readonly<Record<string, unknown>>,
  resources: ResourceStores,
): string {
  const toId = idReader(parent);
  const ids = pathParameterNames(plan.singleton.path).map((name) => {
    const value = values[name];
    const id = toId(value);
    if (id === undefined) throw mockError('record_not_found', `no record of ${parent.key} has id ${String(value).slice(0, 80)}`);
    return id;
  });
  checkParents({ parent: parent.key }, ids, resources);
  return scopeOf(ids) as string;
}

function writeOnlyOf(operation: Operation): readonly string[] {
  const properties = objectShape(requestBodySchema(operation))?.properties ?? {};
  return Object.keys(properties).filter((name) => (properties[name] as RawSchema).writeOnly === true);
}
