import { filterParameters, pageSizeParameter } from '../../../../contract/list-parameters.js';
import type { Operation } from '../../../../contract/operation.js';
import { inferResources } from '../../../../contract/resources/infer-resources.js';
import { requestSchema } from '../../../../contract/resources/representation.js';
import type { Resource, ResourceModel } from '../../../../contract/resources/resource.js';
import { operationOf, upsertOf } from '../../../../contract/resources/resource-roles.js';
import type { Scenario, StepExpectation } from '../../scenario.js';
import type { CaseKind } from '../case-kind.js';
import { invalidInputStatus, successStatuses } from '../expected-statuses.js';
import { makeCase, type StepSpec } from '../make-case.js';
import type { Random } from '../create-random.js';
import { createBody, repeatedCreate, withFreshValues } from '../own-records.js';
import { validVariants } from '../value-variants.js';
import { onceMarked } from '../../resource-marks.js';
import { ownFilter } from './own-filter.js';
import { cursorCase } from './pagination-cursor.js';

// The filler before a full page is a hundred creates of one body, in no particular order: one after another they
// were most of a run's time (a hundred round trips to staging). The run's --concurrency still bounds the wire.
const FILLER_AT_ONCE = 8;

// The most records a case creates to fill one page. A page size's maximum is often no promise but its type's bound
// (format: int32 reads as maximum 2147483647): filling that page is not a test a run can make, and building its
// creates took the runner's heap (kratos RealWorld: out of memory at --list).
const MOST_FILLED = 1000;

export const paginationKind: CaseKind = {
  id: 'pagination',
  description:
    'a list never exceeds its page size and is full when enough resources match (creating what is missing first), at the minimum, maximum and default; a filter returns only its value; a cursor-paged list walked by its next cursors repeats no record and ends',
  generate: ({ contract, random }) => {
    const model = inferResources(contract);
    return model.resources.flatMap((resource) => {
      const found = creatorAndList(resource, contract.byId);
      return found ? casesFor(resource, found.create, found.list, random, model) : [];
    });
  },
  // A page too large to fill, and a list whose records are made by PUT at ids the client chooses (rule 11), which has
  // no create to fill a page with: said.
  notMade: ({ contract }) =>
    inferResources(contract).resources.flatMap((resource) => {
      const list = operationOf(resource, 'list', contract.byId);
      const pages = Object.keys(resource.list?.paging ?? {}).length + (resource.list?.filters.length ?? 0) > 0;
      if (resource.stateless || !resource.id || !list) return [];
      const max = pageSizeParameter(list)?.schema.maximum;
      if (max !== undefined && max > MOST_FILLED && creatorAndList(resource, contract.byId)) {
        return [
          {
            operationId: list.operationId,
            cases: `pagination cases of ${list.operationId} at the largest page (maximum, between)`,
            reason: `its page size's maximum, ${max}, is more records than a case creates (${MOST_FILLED} at most)`,
          },
        ];
      }
      if (!pages || !upsertOf(resource, contract.byId)) return [];
      return [
        {
          operationId: list.operationId,
          cases: `pagination cases of ${list.operationId}`,
          reason: `its records are made by PUT at ids the client chooses (rule 11), and pages are filled only by a create`,
        },
      ];
    }),
};

function creatorAndList(
  resource: Resource,
  byId: ReadonlyMap<string, Operation>,
): { readonly create: Operation; readonly list: Operation } | undefined {
  if (resource.stateless || !resource.id) return undefined;
  const [create, list] = [operationOf(resource, 'create', byId), operationOf(resource, 'list', byId)];
  return create && list ? { create, list } : undefined;
}

// A nested resource's creates and lists name no parent here: bindOwnRecords puts every step of a case under one
// parent the case creates first (an author of its own), so the page holds only the case's records.
function casesFor(resource: Resource, create: Operation, list: Operation, random: Random, model: ResourceModel): Scenario[] {
  const op = list.operationId;
  // A list that wraps its records (`{ items, next }`) is counted and searched at its pointer.
  const pointer = resource.listPointer;
  const listAt = pointer.length > 0 ? { listAt: pointer } : {};
  const before = `{{${['before', 'body', ...pointer].join('.')}}}`;
  const listing = (query: Record<string, unknown>, expect: StepExpectation = {}): StepSpec => ({
    operation: list,
    query,
    expect: { status: successStatuses(list), ...expect, ...(expect.bodyLength || expect.bodyIncludes ? listAt : {}) },
  });
  const id = (resource.id as NonNullable<Resource['id']>).name;
  const base = createBody(model, resource, create, random, false);
  const created = successStatuses(create);
  // Each create of a client-named id (a book's ISBN) sends one of its own: one body sent twice names one record.
  const creates = (count: number, less?: string, fields: Record<string, unknown> = {}): StepSpec => {
    const { body, repeat } = repeatedCreate(model, resource, create, { ...base, ...fields }, count, random);
    return {
      operation: create,
      body,
      repeat: { ...repeat, ...(less ? { less } : {}) },
      ...(count > 1 ? { parallel: FILLER_AT_ONCE } : {}),
      expect: { status: created },
    };
  };
  const cases: Scenario[] = [];
  const make = (id: string, name: string, description: string, steps: StepSpec[]) =>
    cases.push(makeCase({ kind: 'pagination', id: `${op}/${id}`, name, description, steps }));
  // Resources whose fields hold the hardest valid values (markup, quotes, 10,000 characters, int64 ends), created
  // at both ends of the filler: a full page shows the oldest or the newest, and listed-as-created compares each
  // one it shows with what its create answered (a list that escapes or cuts names). A value a server may refuse
  // (an empty name, a negative categoryId: the contract sets no bound) may get the create's documented refusal.
  const schema = requestSchema(create);
  // Not a client-named id: both ends would send its variants, naming one record twice.
  const variants = Object.entries(schema?.properties ?? {}).flatMap(([name, property]) =>
    property.enum || resource.serverFields.includes(name) || name === id
      ? []
      : validVariants(property, random).map((variant) => ({ fields: { [name]: variant.value }, mayRefuse: variant.mayRefuse })),
  );
  const refusal = invalidInputStatus(create);
  const hardValues = (): StepSpec[] =>
    variants.map(({ fields, mayRefuse }) => {
      const step = creates(1, undefined, fields);
      if (mayRefuse === undefined || refusal === undefined) return step;
      return {
        ...step,
        expect: { status: [...created, refusal] },
        observe: `whether ${create.operationId} takes it (${mayRefuse})`,
      };
    });
  // A resource named with a mark of its own at each end too: a full page in creation order shows one of them, and
  // stored-once fails a page that shows it twice (a create stored twice).
  const onceMarkedCreate = (): StepSpec[] => {
    const marked = onceMarked(schema, random);
    return marked ? [creates(1, undefined, marked)] : [];
  };
  const page = pageSizeParameter(list);
  const max = page?.schema.maximum;
  if (page && max !== undefined) {
    const min = Math.max(1, page.schema.minimum ?? 1);
    // How many exist before the filler: list-within-query holds this page, like every other, to its page size.
    const atMost = (n: number) => listing({ [page.name]: n });
    if (max <= MOST_FILLED) {
      make(
        `${page.name}-maximum`,
        `${op} with ${page.name}=${max} answers a full page once more than ${max} match`,
        `Given more than ${max} resources (created first where fewer exist, the first and the last of them with the hardest valid values and a name of their own), when ${op} is called with ${page.name}=${max}, then it answers exactly ${max}, and every resource of this run it shows has the fields its create answered (listed-as-created).`,
        [
          { ...atMost(max), capture: 'before' },
          ...onceMarkedCreate(),
          ...hardValues(),
          creates(max + 1, before),
          ...hardValues(),
          ...onceMarkedCreate(),
          listing({ [page.name]: max }, { bodyLength: { equals: max } }),
        ],
      );
    }
    make(
      `${page.name}-minimum`,
      `${op} with ${page.name}=${min} answers exactly ${min}`,
      `Given at least ${min} resources, when ${op} is called with ${page.name}=${min}, then it answers exactly ${min}.`,
      [creates(min), listing({ [page.name]: min }, { bodyLength: { equals: min } })],
    );
    const fallback = page.schema.default;
    if (typeof fallback === 'number' && fallback < max && fallback < MOST_FILLED) {
      make(
        `${page.name}-default`,
        `${op} without ${page.name} answers its default of ${fallback}`,
        `Given more than ${fallback} resources (created first where fewer exist), when ${op} is called without ${page.name}, or with ${page.name}=${fallback}, then it answers exactly ${fallback}.`,
        [
          { ...atMost(max), capture: 'before' },
          creates(fallback + 1, before),
          listing({}, { bodyLength: { equals: fallback } }),
          listing({ [page.name]: fallback }, { bodyLength: { equals: fallback } }),
        ],
      );
    }
    // A value between the ends, different on every seed: a server that honours only the ends and its default
    // (a page of 20 for any limit from 6 to 99) passes every other case.
    if (max - min >= 4 && max <= MOST_FILLED) {
      const between = min + 2 + random.below(max - min - 3);
      make(
        `${page.name}-between`,
        `${op} with ${page.name}=${between} answers exactly ${between} once more match`,
        `Given more than ${between} resources (created first where fewer exist), when ${op} is called with ${page.name}=${between}, a value between its minimum and maximum, then it answers exactly ${between}.`,
        [
          { ...atMost(max), capture: 'before' },
          creates(between + 1, before),
          listing({ [page.name]: between }, { bodyLength: { equals: between } }),
        ],
      );
    }
  }
  const walk = cursorCase(resource, { create, list, page }, (count, fields) => creates(count, undefined, fields), random, model);
  if (walk) make(walk.id, walk.name, walk.description, walk.steps);
  // A filter on a field the create does not take (an export's status, which the server moves on) has no records the
  // case can make with a value of its choosing.
  const settable = filterParameters(list, resource).filter((filter) => schema?.properties?.[filter.name] !== undefined);
  for (const filter of settable) {
    for (const value of filter.schema.enum ?? []) {
      const only = { [filter.name]: value };
      const steps: StepSpec[] = [{ ...creates(1, undefined, only), capture: 'first' }, creates(1, undefined, only)];
      // A record of another value beside them: a nested list holds only the case's own records (its parent is the
      // case's), so without one a list that ignores the filter would hold the right records anyway.
      const other = filter.schema.enum?.find((candidate) => candidate !== value);
      if (other !== undefined) steps.push(creates(1, undefined, { [filter.name]: other }));
      if (page && max !== undefined && max >= 2) {
        steps.push(listing({ ...only, [page.name]: 2 }, { bodyLength: { equals: 2 } }));
      }
      const whole = page && max !== undefined ? { [page.name]: max } : {};
      steps.push(
        listing(
          { ...only, ...whole },
          {
            bodyIncludes: {
              item: { [id]: `{{first.body.${id}}}`, ...only },
              ...(max !== undefined ? { whenShorterThan: max } : {}),
            },
          },
        ),
      );
      make(
        `${filter.name}-${String(value)}`,
        `${op} filtered by ${filter.name}=${String(value)} holds only and all such resources`,
        `Given two resources created with ${filter.name} ${String(value)} and one with another, when ${op} is filtered by it, then every item has that ${filter.name}, a page of 2 is full, and a list shorter than its page holds the first of them.`,
        steps,
      );
    }
  }
  const both = bothFilters(resource, create, list, random, model);
  // One create, its body whole in the step (a repeat's bodies keep their {{run.id}} unfilled).
  const createOne = (fields: Record<string, unknown>): StepSpec => ({
    operation: create,
    body: { kind: 'json', value: withFreshValues(model, resource, create, { ...base, ...fields }, random) },
    expect: { status: created },
  });
  const exact = ownFilter(resource, create, random, model);
  const decoy = ownFilter(resource, create, random, model, true)?.value;
  if (exact?.exact && decoy !== undefined) {
    const { parameter, field, value } = exact;
    make(
      `${parameter}-own-value`,
      `${op} filtered by ${parameter} holds only the resource with that value`,
      `Given a resource created with a ${field} of the case's own and one with another, when ${op} is filtered by the first value, then it holds exactly the first resource.`,
      [
        { ...createOne({ [field]: value }), capture: 'first' },
        createOne({ [field]: decoy }),
        listing(
          { [parameter]: value, ...(page && max !== undefined ? { [page.name]: max } : {}) },
          // The list holds the case's record alone: a documented count header says 1 (total-count).
          { bodyLength: { equals: 1 }, bodyIncludes: { item: { [id]: `{{first.body.${id}}}` } }, totalCount: 1 },
        ),
      ],
    );
  }
  if (both) {
    const { enumName, value, other, ownName, ownField, own, otherOwn } = both;
    const query = { [enumName]: value, [ownName]: own, ...(page && max !== undefined ? { [page.name]: max } : {}) };
    make(
      `${enumName}-and-${ownName}`,
      `${op} filtered by ${enumName} and ${ownName} together holds only what matches both`,
      `Given a resource created with ${enumName} ${String(value)} and a ${ownName} of the case's own, one with the same ${ownName} and ${enumName} ${String(other)}, and one with ${enumName} ${String(value)} and another ${ownName}, when ${op} is filtered by both, then every item matches both (list-within-query) and the first is listed.`,
      [
        { ...createOne({ [enumName]: value, [ownField]: own }), capture: 'first' },
        createOne({ [enumName]: other, [ownField]: own }),
        createOne({ [enumName]: value, [ownField]: otherOwn }),
        listing(query, {
          bodyIncludes: { item: { [id]: `{{first.body.${id}}}` }, ...(max !== undefined ? { whenShorterThan: max } : {}) },
        }),
      ],
    );
  }
  return cases;
}

/**
 * An enum filter and a filter on a field of the case's own (own-filter.ts), each with two values: a list that
 * applies one of two filters given together, or either of them, shows a record that matches only the other.
 */
function bothFilters(resource: Resource, create: Operation, list: Operation, random: Random, model: ResourceModel) {
  const choice = filterParameters(list, resource).find((f) => (f.schema.enum?.length ?? 0) >= 2);
  const own = ownFilter(resource, create, random, model);
  if (!choice || !own || own.parameter === choice.name) return undefined;
  const [value, other] = choice.schema.enum as readonly unknown[];
  const otherOwn = ownFilter(resource, create, random, model, true)?.value;
  return { enumName: choice.name, value, other, ownName: own.parameter, ownField: own.field, own: own.value, otherOwn };
}
