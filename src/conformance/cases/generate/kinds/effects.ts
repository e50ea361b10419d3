import type { Contract } from '../../../../contract/load-contract.js';
import type { JsonSchema, Operation } from '../../../../contract/operation.js';
import { largestPageQuery, pageSizeParameter } from '../../../../contract/list-parameters.js';
import { mapLeaves } from '../../../../contract/map-leaves.js';
import { inferResources } from '../../../../contract/resources/infer-resources.js';
import type { RawSchema } from '../../../../contract/resources/object-shape.js';
import { offeredFields } from '../../../../contract/resources/offered-fields.js';
import { answerSchema, requestSchema } from '../../../../contract/resources/representation.js';
import { operationOf, resourceRoles } from '../../../../contract/resources/resource-roles.js';
import type { Resource, ResourceModel } from '../../../../contract/resources/resource.js';
import type { ResourceEffect, Scenario, Step } from '../../scenario.js';
import type { CaseKind, NotMade } from '../case-kind.js';
import type { Random } from '../create-random.js';
import { invalidInputStatus, invalidInputStatuses, successStatuses } from '../expected-statuses.js';
import { withFreshKeys } from '../fresh-keys.js';
import { makeCase, type StepSpec } from '../make-case.js';
import { absentValue, freeParameters, freeValue, ownRecord, pathParams, sendsOwnId, withFreshValues } from '../own-records.js';
import { ownPathIdsPerCase } from './effects-own-ids.js';
import { sampleValue } from '../sample-value.js';
import { changedField } from '../changed-field.js';
import { bystander } from './effects-bystander.js';
import { type Context, kept, namedAsItsPath, ownId, readBefore, readStep } from './effects-context.js';
import { pageCases, pageNotMade } from './effects-paging.js';
import { nestedMergeCases } from './effects-nested-merge.js';
import { removalCases } from './effects-removal.js';
import { singletonCases, singletonNotMade } from './effects-singletons.js';

const KIND = 'effects';

const OTHERS_UNTOUCHED = 'Another record the case made just before reads back as it was made (others-untouched).';

export const effectsKind: CaseKind = {
  id: KIND,
  description:
    'what writes did, through later reads of records the case created: a create is readable and listed, a PUT or PATCH shows exactly the change with the id kept and another record as it was, a PUT without an optional field or a PATCH setting it to null leaves it out, a second page repeats nothing of the first, a DELETE leaves a 404 or 410 and no listing (a second one no 5XX), a refused write no trace, and a nested record no other parent',
  generate: ({ contract, random }) => {
    const model = inferResources(contract);
    return [
      ...model.resources.flatMap((resource) =>
        resource.stateless || !resource.id ? [] : resourceCases(resource, model, contract, random),
      ),
      ...singletonCases(contract, model, random, KIND),
    ];
  },
  // A resource that keeps state but has no record the run can make and read back gets no effect case: said.
  notMade: ({ contract, random }) => {
    const model = inferResources(contract);
    return [
      ...singletonNotMade(contract, model, random),
      ...model.resources.flatMap((resource) => {
        if (resource.stateless || !resource.id) return [];
        const own = ownRecord(resource, model, contract, random, 'own');
        const why =
          'reason' in own
            ? own.reason
            : operationOf(resource, 'get', contract.byId)
              ? undefined
              : 'it has no get to read a record back';
        const first = resource.operations[0];
        if (why === undefined) {
          const ctx = contextOf(resource, model, contract, random);
          return [...pageNotMade(ctx), ...orphanNotMade(ctx)];
        }
        return first === undefined
          ? []
          : [
              {
                operationId: first.operationId,
                cases: `effects cases of ${resource.collectionPath} (created-readable, update-took-effect, deleted-is-gone, ...)`,
                reason: why,
              },
            ];
      }),
    ];
  },
};

export function contextOf(resource: Resource, model: ResourceModel, contract: Contract, random: Random): Context | undefined {
  const get = operationOf(resource, 'get', contract.byId);
  const own = ownRecord(resource, model, contract, random, 'own');
  if (!get || 'reason' in own) return undefined;
  const id = (resource.id as NonNullable<Resource['id']>).name;
  return { resource, contract, get, own, id, list: operationOf(resource, 'list', contract.byId), random, model };
}

function resourceCases(resource: Resource, model: ResourceModel, contract: Contract, random: Random): Scenario[] {
  const ctx = contextOf(resource, model, contract, random);
  if (!ctx) return [];
  return [
    createdCase(ctx),
    ...replaceCases(ctx),
    ...patchCases(ctx),
    ...removalCases(ctx, KIND),
    ...nestedMergeCases(ctx, KIND),
    ...pageCases(ctx, KIND),
    ...deleteCases(ctx),
    ...scopedCases(ctx),
  ].map((scenario) => ownPathIdsPerCase(ctx, ownIdPerCase(ctx, ownKeysPerCase(ctx, scenario))));
}

/**
 * Every case creates its record from the one body: its unique keys (an email) are drawn again for each case, and
 * replaced wherever the case sends or expects them, or the second case's create would be refused as taken (409).
 */
export function ownKeysPerCase(ctx: Context, scenario: Scenario): Scenario {
  const create = (ctx.own.steps[ctx.own.steps.length - 1] as StepSpec).operation;
  const fresh = withFreshKeys(ctx.model, create, ctx.own.body, ctx.random);
  const drawn = new Map(
    Object.entries(fresh)
      .filter(([name, value]) => value !== ctx.own.body[name])
      .map(([name, value]) => [ctx.own.body[name], value]),
  );
  // The parents' creates too, their ids among them where the client names them (an org's login): each case makes
  // parents of its own, and a second org of the same login is refused as taken.
  const roles = resourceRoles(ctx.model);
  for (const step of ctx.own.steps.slice(0, -1)) {
    const level = roles.get(step.operation.operationId)?.resource;
    const body = step.body?.kind === 'json' ? (step.body.value as Record<string, unknown>) : undefined;
    if (!level || body === null || typeof body !== 'object' || Array.isArray(body)) continue;
    const again = withFreshValues(ctx.model, level, step.operation, body, ctx.random);
    for (const [name, value] of Object.entries(again)) if (value !== body[name]) drawn.set(body[name], value);
  }
  if (drawn.size === 0) return scenario;
  const swap = (value: unknown) => mapLeaves(value, (leaf) => (drawn.has(leaf) ? drawn.get(leaf) : leaf));
  return {
    ...scenario,
    steps: scenario.steps.map((step) => ({
      ...step,
      body: swap(step.body) as Step['body'],
      query: swap(step.query) as Step['query'],
      expect: swap(step.expect) as Step['expect'],
    })),
  };
}

/**
 * An id the client names (a SKU) is drawn again for each case, or the second case's create would be refused as
 * taken. Reads take the id from the create's answer.
 */
export function ownIdPerCase(ctx: Context, scenario: Scenario): Scenario {
  const create = (ctx.own.steps[ctx.own.steps.length - 1] as StepSpec).operation;
  // A PUT at the run's own id names it in its path as well: ownPathIdsPerCase draws it again everywhere.
  if (!sendsOwnId(ctx.resource, create) || ctx.own.drawn.length > 0) return scenario;
  const taken = ctx.own.body[ctx.id];
  const fresh = withFreshValues(ctx.model, ctx.resource, create, ctx.own.body, ctx.random)[ctx.id];
  const named = (step: Step) => {
    const value = step.body?.kind === 'json' ? step.body.value : undefined;
    return step.operation === create && value !== null && typeof value === 'object' && (value as Row)[ctx.id] === taken;
  };
  return {
    ...scenario,
    steps: scenario.steps.map((step) =>
      named(step)
        ? { ...step, body: { kind: 'json', value: { ...((step.body as { value: Row }).value as Row), [ctx.id]: fresh } } }
        : step,
    ),
  };
}

type Row = Record<string, unknown>;

function listStep(ctx: Context, check: ResourceEffect['check'], present: boolean): StepSpec[] {
  if (!ctx.list) return [];
  const pageSize = pageSizeParameter(ctx.list);
  return [
    {
      operation: ctx.list,
      params: pathParams(ctx.list, ctx.own.values.slice(0, -1)),
      query: largestPageQuery(ctx.list),
      expect: {
        status: successStatuses(ctx.list),
        effect: {
          check,
          listed: {
            field: ctx.id,
            value: ownId(ctx),
            present,
            pointer: ctx.resource.listPointer,
            pageSize: pageSize?.schema.maximum,
          },
        },
      },
    },
  ];
}

function createdCase(ctx: Context): Scenario {
  const create = ctx.own.steps[ctx.own.steps.length - 1] as StepSpec;
  const name = create.operation.operationId;
  return makeCase({
    kind: KIND,
    id: `${name}/created-readable`,
    name: `${name} makes a record that ${ctx.get.operationId}${ctx.list ? ` and ${ctx.list.operationId}` : ''} show`,
    description: `Given a record the case creates with ${name}, when ${ctx.get.operationId} reads it${ctx.list ? ` and ${ctx.list.operationId} lists its collection at its largest page` : ''}, then it is there with the fields the create sent (created-readable).`,
    steps: [
      ...ctx.own.steps,
      readStep(ctx, {
        check: 'created-readable',
        status: ['2XX'],
        body: { ...kept(ctx, ctx.own.body, false), [ctx.id]: ownId(ctx) },
      }),
      ...listStep(ctx, 'created-readable', true),
    ],
  });
}

function replaceCases(ctx: Context): Scenario[] {
  const replace = operationOf(ctx.resource, 'replace', ctx.contract.byId);
  if (!replace) return [];
  // Only the fields the replace names: a server may drop one it does not (a create's tagList a PUT does not take).
  const offered = offeredFields(requestSchema(replace) as RawSchema | undefined);
  const record = Object.entries({ ...ctx.own.body, ...changed(requestSchema(replace), ctx) });
  const body = namedAsItsPath(ctx, replace, Object.fromEntries(record.filter(([name]) => offered?.has(name) ?? true)));
  return [
    updateCase(ctx, replace, body, body, {
      name: `${replace.operationId} replaces the record, and ${ctx.get.operationId} shows exactly the change`,
      description: `Given a record the case created, when ${replace.operationId} replaces it with other values, then ${ctx.get.operationId} shows them and the same ${ctx.id} (update-took-effect).`,
    }),
    ...refusedCase(ctx, replace, wrongBody(requestSchema(replace))),
    ...refusedCase(ctx, replace, withoutRequired(ctx, replace, body)),
  ];
}

function patchCases(ctx: Context): Scenario[] {
  const patch = operationOf(ctx.resource, 'merge-patch', ctx.contract.byId);
  if (!patch) return [];
  const change = changed(requestSchema(patch), ctx);
  if (Object.keys(change).length === 0) return [];
  return [
    updateCase(
      ctx,
      patch,
      change,
      { ...ctx.own.body, ...change },
      {
        name: `${patch.operationId} merges one field, and ${ctx.get.operationId} shows it with every other field kept`,
        description: `Given a record the case created with every field, when ${patch.operationId} sends one changed field (RFC 7396), then ${ctx.get.operationId} shows it, the fields not sent as they were, and the same ${ctx.id} (update-took-effect).`,
      },
    ),
    ...refusedCase(ctx, patch, wrongBody(requestSchema(patch))),
  ];
}

/** The case's own record, `write` sent with `body`, then the get must show `shown` and the same id. */
function updateCase(
  ctx: Context,
  write: Operation,
  body: Record<string, unknown>,
  shown: Record<string, unknown>,
  words: { readonly name: string; readonly description: string },
): Scenario {
  const after = { ...kept(ctx, shown, true), [ctx.id]: ownId(ctx) };
  // A write that answers the record ("The animal as replaced") answers it as written, not as it was.
  const answer: ResourceEffect | undefined = answerSchema(write) ? { check: 'update-took-effect', body: after } : undefined;
  const other = bystander(ctx);
  return makeCase({
    kind: KIND,
    id: `${write.operationId}/update-took-effect`,
    name: words.name,
    description: `${words.description} ${OTHERS_UNTOUCHED}`,
    steps: [
      ...other.steps,
      readBefore(ctx),
      {
        operation: write,
        params: pathParams(write, ctx.own.values),
        body: { kind: 'json', value: body },
        expect: { status: successStatuses(write), ...(answer ? { effect: answer } : {}) },
        capture: 'written',
      },
      readStep(ctx, { check: 'update-took-effect', status: ['2XX'], body: after }),
      other.read('written'),
      // A second PUT at the id of a PUT that creates (rule 11) replaces: the list holds the id once (ids-unique-in-list).
      ...(ctx.own.drawn.length > 0 && write.method === 'PUT' ? listStep(ctx, 'update-took-effect', true) : []),
    ],
  });
}

// Only where the write documents its refusal: otherwise the server may take the body, and nothing is asserted.
function refusedCase(ctx: Context, write: Operation, wrong: RefusedBody | undefined): Scenario[] {
  const refusal = invalidInputStatus(write);
  if (refusal === undefined || !wrong) return [];
  return [
    makeCase({
      kind: KIND,
      id: `${write.operationId}/${wrong.id ?? 'refusal-leaves-no-trace'}`,
      name: `${write.operationId} refused leaves the record as it was`,
      description: `Given a record the case created, when ${write.operationId} sends ${wrong.what} and is refused with ${refusal}, then ${ctx.get.operationId} shows the record as created (refusal-leaves-no-trace).`,
      steps: [
        ...ctx.own.steps,
        {
          operation: write,
          params: pathParams(write, ctx.own.values),
          body: { kind: 'json', value: wrong.body },
          expect: { status: invalidInputStatuses(write) },
        },
        readStep(ctx, {
          check: 'refusal-leaves-no-trace',
          status: ['2XX'],
          body: { ...kept(ctx, ctx.own.body, false), [ctx.id]: ownId(ctx) },
        }),
      ],
    }),
  ];
}

function deleteCases(ctx: Context): Scenario[] {
  const remove = operationOf(ctx.resource, 'delete', ctx.contract.byId);
  if (!remove) return [];
  // RFC 9110 §15.3.3: a 202 accepts the delete for later, so nothing can be asserted of a read right after it.
  const done = successStatuses(remove).filter((s) => s !== 202);
  if (done.length === 0) return [];
  const other = bystander(ctx);
  return [
    makeCase({
      kind: KIND,
      id: `${remove.operationId}/deleted-is-gone`,
      name: `${remove.operationId} removes the record: ${ctx.get.operationId} is 404 and the list lacks it`,
      description: `Given a record the case created, when ${remove.operationId} deletes it, then ${ctx.get.operationId} answers 404 or 410 and the list lacks it (deleted-is-gone); a second ${remove.operationId} is answered without a server error (delete-repeatable). ${OTHERS_UNTOUCHED}`,
      steps: [
        ...other.steps,
        readBefore(ctx),
        { operation: remove, params: pathParams(remove, ctx.own.values), expect: { status: done }, capture: 'removed' },
        readStep(ctx, { check: 'deleted-is-gone', status: [404, 410] }),
        other.read('removed'),
        ...listStep(ctx, 'deleted-is-gone', false),
        {
          operation: remove,
          params: pathParams(remove, ctx.own.values),
          expect: { effect: { check: 'delete-repeatable', statusNot: ['5XX'] } },
        },
      ],
    }),
    ...refusedDeleteCase(ctx, remove),
  ];
}

// A DELETE without a key is refused before anything is removed (RFC 6750 §3.1): the record is still there.
function refusedDeleteCase(ctx: Context, remove: Operation): Scenario[] {
  if (remove.auth !== 'key' || !remove.responses.some((r) => r.code === '401')) return [];
  return [
    makeCase({
      kind: KIND,
      id: `${remove.operationId}/refused-without-key-leaves-no-trace`,
      name: `${remove.operationId} refused without a key leaves the record where it was`,
      description: `Given a record the case created, when ${remove.operationId} is sent without a key and refused with 401, then ${ctx.get.operationId} still shows the record (refusal-leaves-no-trace).`,
      steps: [
        ...ctx.own.steps,
        { operation: remove, params: pathParams(remove, ctx.own.values), auth: 'none', expect: { status: [401] } },
        readStep(ctx, { check: 'refusal-leaves-no-trace', status: ['2XX'], body: { [ctx.id]: ownId(ctx) } }),
      ],
      tags: ['security'],
    }),
  ];
}

// Two parents of the case's own, the record under the first, read under the second: only where the read
// documents its 404 (docs/resources.md, hierarchy guard).
function scopedCases(ctx: Context): Scenario[] {
  if (ctx.own.values.length < 2 || !ctx.get.responses.some((r) => r.code === '404')) return [];
  const parentResource = ctx.model.resources.find((r) => r.key === ctx.resource.parent);
  if (!parentResource) return freeScopedCase(ctx);
  const other = ownRecord(parentResource, ctx.model, ctx.contract, ctx.random, 'other');
  if ('reason' in other) return [];
  const elsewhere = [...other.values, ownId(ctx)];
  return [
    makeCase({
      kind: KIND,
      id: `${ctx.get.operationId}/parent-scoped`,
      name: `${ctx.get.operationId} does not reach a record through another parent`,
      description: `Given two parents the case created and a record under the first, when ${ctx.get.operationId} asks for it under the second, then the answer is the documented 404 (parent-scoped).`,
      steps: [
        ...ctx.own.steps,
        ...other.steps.map((step) => ({ ...step, setup: true })),
        readStep(ctx, { check: 'parent-scoped', status: [404] }, elsewhere),
      ],
    }),
    ...goneWithParentCase(ctx, parentResource),
    ...orphanCreateCase(ctx),
  ];
}

/**
 * A record under path parameters no resource names (`/workspaces/{workspace}/projects/{projectId}`) read under other
 * values of them, drawn within their schemas: they scope it as a parent's id does, so the answer is the documented
 * 404 whether or not the server knows the other workspace.
 */
function freeScopedCase(ctx: Context): Scenario[] {
  const free = freeParameters(ctx.resource, ctx.model, ctx.get);
  const others = free.map((p) => freeValue(p.schema, ctx.random));
  if (free.length === 0 || others.some((value, i) => value === ctx.own.values[i])) return [];
  const names = free.map((p) => p.name).join(', ');
  return [
    makeCase({
      kind: KIND,
      id: `${ctx.get.operationId}/parent-scoped`,
      name: `${ctx.get.operationId} does not reach a record under another ${names}`,
      description: `Given a record the case created, when ${ctx.get.operationId} asks for it under another ${names}, then the answer is the documented 404 (parent-scoped).`,
      steps: [...ctx.own.steps, readStep(ctx, { check: 'parent-scoped', status: [404] }, [...others, ownId(ctx)])],
    }),
  ];
}

// The record under a parent the case then deletes: its path names a parent no one has, so the read is a 404 (or a
// 410, as for the parent), as a create there would be. Not after a 202: that delete may not have happened yet.
function goneWithParentCase(ctx: Context, parentResource: Resource): Scenario[] {
  const remove = operationOf(parentResource, 'delete', ctx.contract.byId);
  const done = remove ? successStatuses(remove).filter((s) => s !== 202) : [];
  if (!remove || done.length === 0) return [];
  return [
    makeCase({
      kind: KIND,
      id: `${ctx.get.operationId}/gone-with-parent`,
      name: `${ctx.get.operationId} does not reach a record whose parent ${remove.operationId} removed`,
      description: `Given a record the case created under a parent of its own, when ${remove.operationId} deletes the parent, then ${ctx.get.operationId} of the record answers 404 or 410 (parent-scoped).`,
      steps: [
        ...ctx.own.steps,
        { operation: remove, params: pathParams(remove, ctx.own.values.slice(0, -1)), expect: { status: done } },
        readStep(ctx, { check: 'parent-scoped', status: [404, 410] }),
      ],
    }),
  ];
}

/** The parent id no one has that a create under it sends, or why none can be drawn; undefined: no such case. */
function orphanParent(ctx: Context): { readonly values: string[] } | { readonly reason: string } | undefined {
  const create = (ctx.own.steps[ctx.own.steps.length - 1] as StepSpec).operation;
  if (ctx.own.values.length < 2 || !create.responses.some((r) => r.code === '404')) return undefined;
  // By position: a create on the collection names the parents alone, a PUT that creates (rule 11) the record too.
  const parentName = Object.keys(pathParams(create, ctx.own.values))[ctx.own.values.length - 2] as string;
  const parentSchema = create.parameters.find((p) => p.name === parentName)?.schema;
  if (!parentSchema) return undefined;
  // The sample names the case's own parent once bound (bind-own-records.ts): only another value is one no one has.
  const absent = absentValue(parentSchema, ctx.random);
  if (absent === sampleValue(parentSchema))
    return {
      reason: `no ${parentName} other than its sample could be drawn within its pattern (give the parameter an example that matches it)`,
    };
  const parents = [...ctx.own.values.slice(0, -2), String(absent)];
  return { values: ctx.own.drawn.length > 0 ? [...parents, ownId(ctx)] : parents };
}

/** The orphan create's case, when its parent id cannot be drawn: said, never dropped in silence. */
export function orphanNotMade(ctx: Context | undefined): NotMade[] {
  // Made among the parent-scoped cases, which need the get's documented 404.
  const orphan = ctx?.get.responses.some((r) => r.code === '404') ? orphanParent(ctx) : undefined;
  if (!ctx || !orphan || !('reason' in orphan)) return [];
  const create = (ctx.own.steps[ctx.own.steps.length - 1] as StepSpec).operation.operationId;
  return [{ operationId: create, cases: `effects/${create}/parent-scoped`, reason: orphan.reason }];
}

// A create under a parent no one has is refused with the create's documented 404, and makes nothing.
function orphanCreateCase(ctx: Context): Scenario[] {
  const create = ctx.own.steps[ctx.own.steps.length - 1] as StepSpec;
  const orphan = orphanParent(ctx);
  if (!orphan || 'reason' in orphan) return [];
  const { values } = orphan;
  return [
    makeCase({
      kind: KIND,
      id: `${create.operation.operationId}/parent-scoped`,
      name: `${create.operation.operationId} under a parent no one has is refused`,
      description: `Given a parent id no record has, when ${create.operation.operationId} creates under it, then the answer is the documented 404 (parent-scoped).`,
      steps: [
        ...ctx.own.steps.slice(0, -2),
        {
          ...create,
          params: pathParams(create.operation, values),
          capture: undefined,
          expect: { effect: { check: 'parent-scoped', status: [404] } },
        },
      ],
    }),
  ];
}

// One field set to another valid value (changed-field.ts), never the id.
export function changed(schema: JsonSchema | undefined, ctx: Context): Record<string, unknown> {
  return changedField(schema, ctx.own.body, [ctx.id]);
}

interface RefusedBody {
  readonly body: unknown;
  readonly what: string;
  /** The case's id after the operation's, when not `refusal-leaves-no-trace`. */
  readonly id?: string;
}

/**
 * A replacement the write's schema refuses for want of a required field, its other fields changed: a server that
 * merges it into the record (a PUT read as a PATCH) shows the change.
 */
function withoutRequired(ctx: Context, write: Operation, body: Record<string, unknown>): RefusedBody | undefined {
  const schema = requestSchema(write);
  const name = schema?.required?.find((field) => field !== ctx.id && field in body);
  if (name === undefined) return undefined;
  const { [name]: _, ...rest } = body;
  return {
    body: rest,
    what: `the record's other fields changed, without ${name}, which it requires`,
    id: `${name}-missing/refusal-leaves-no-trace`,
  };
}

/** A body the write's schema refuses: a field of the wrong type (a number where text is required). */
function wrongBody(schema: JsonSchema | undefined): RefusedBody | undefined {
  for (const [name, property] of Object.entries(schema?.properties ?? {})) {
    if (property.type === 'string' && !property.nullable)
      return { body: { [name]: 12345 }, what: `${name} as a number, where the contract types it text` };
  }
  return undefined;
}
