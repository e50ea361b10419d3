import type { JsonSchema, Operation } from '../../../../contract/operation.js';
import type { Scenario } from '../../scenario.js';
import { successStatuses } from '../expected-statuses.js';
import { makeCase, type StepSpec } from '../make-case.js';
import { pathParams, withFreshValues } from '../own-records.js';
import type { NotMade } from '../case-kind.js';
import type { Context } from './effects-context.js';
import { type OwnFilter, ownFilter } from './own-filter.js';

/**
 * Records of the case's own, all with one filter value no other case sends, listed a page at a time: the second
 * page (offset = limit, or the next page number) must not repeat the first, and holds the records it left. The filter keeps other cases' records
 * out of both pages, so a create between the two reads cannot shift one record onto both.
 */
export function pageCases(ctx: Context, kind: string): Scenario[] {
  const plan = pagePlan(ctx);
  if (!plan || 'reason' in plan) return [];
  const { list, size, filter, decoy, second } = plan;
  const create = ctx.own.steps[ctx.own.steps.length - 1] as StepSpec;
  const parents = ctx.own.values.slice(0, -1);
  const query = { [plan.limit]: size, [filter.parameter]: filter.value };
  const createWith = (value: unknown): StepSpec => ({
    ...create,
    capture: undefined,
    body: {
      kind: 'json',
      value: withFreshValues(ctx.model, ctx.resource, create.operation, { ...ctx.own.body, [filter.field]: value }, ctx.random),
    },
  });
  // A record with another value of the case's own before and after them: a list that ignores the filter shows one on
  // its first page, oldest or newest first (list-within-query).
  const creates = [createWith(decoy), ...Array.from({ length: size + 2 }, () => createWith(filter.value)), createWith(decoy)];
  return [
    makeCase({
      kind,
      id: `${list.operationId}/page-advances`,
      name: `${list.operationId} answers other records on its second page`,
      description: `Given ${size + 2} records the case created with one ${filter.parameter} of its own, between two with another, when ${list.operationId} lists them ${size} at a time, then the second page (${second.name}=${second.value}) holds the ${Math.min(size, 2)} records that follow the first, none of the first, and is not the first again (page-advances).`,
      steps: [
        ...ctx.own.steps.slice(0, -1),
        ...creates,
        {
          operation: list,
          params: pathParams(list, parents),
          query,
          capture: 'page1',
          // Matched by equality, the filter leaves the case's own records alone: a count header says how many.
          expect: { status: successStatuses(list), ...(filter.exact ? { totalCount: size + 2 } : {}) },
        },
        {
          operation: list,
          params: pathParams(list, parents),
          query: { ...query, [second.name]: second.value },
          expect: {
            effect: {
              check: 'page-advances',
              status: ['2XX'],
              nextPage: { field: ctx.id, pointer: ctx.resource.listPointer, previous: '{{page1.body}}', size, rest: 2 },
            },
          },
        },
      ],
    }),
  ];
}

/** A list that documents an offset or page number but gets no page case, and why. */
export function pageNotMade(ctx: Context | undefined): NotMade[] {
  const plan = ctx && pagePlan(ctx);
  if (!ctx?.list || !plan || !('reason' in plan)) return [];
  return [{ operationId: ctx.list.operationId, cases: `effects/${ctx.list.operationId}/page-advances`, reason: plan.reason }];
}

interface PagePlan {
  readonly list: Operation;
  readonly limit: string;
  readonly size: number;
  readonly filter: OwnFilter;
  /** Another value of the case's own for the filtered field, which the filtered pages must not show. */
  readonly decoy: unknown;
  readonly second: { readonly name: string; readonly value: number };
}

/** How the case pages the list, or why it cannot: undefined where the list documents no offset or page number. */
function pagePlan(ctx: Context): PagePlan | { readonly reason: string } | undefined {
  const paging = ctx.resource.list?.paging;
  const list = ctx.list;
  const step = paging?.offset ?? paging?.page;
  if (!list || !paging || step === undefined) return undefined;
  if (paging.limit === undefined) return { reason: `${list.operationId} has no page size to ask small pages with` };
  const limit = schemaOf(list, paging.limit);
  const size = Math.max(limit?.minimum ?? 1, Math.min(2, limit?.maximum ?? 2));
  const create = (ctx.own.steps[ctx.own.steps.length - 1] as StepSpec).operation;
  const filter = ownFilter(ctx.resource, create, ctx.random, ctx.model);
  if (!filter)
    return {
      reason: `${list.operationId} has no filter on a free text or number field the case can give a value of its own, so other cases' records could shift a page between two reads`,
    };
  const start = schemaOf(list, step);
  const first = Number(start?.default ?? start?.minimum ?? (paging.offset ? 0 : 1));
  const decoy = ownFilter(ctx.resource, create, ctx.random, ctx.model, true)?.value;
  const second = { name: step, value: paging.offset ? first + size : first + 1 };
  return { list, limit: paging.limit, size, filter, decoy, second };
}

function schemaOf(list: Operation, name: string): JsonSchema | undefined {
  return list.parameters.find((p) => p.in === 'query' && p.name === name)?.schema;
}
