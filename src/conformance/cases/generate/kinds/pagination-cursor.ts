import type { Operation, ParameterSpec } from '../../../../contract/operation.js';
import type { Resource, ResourceModel } from '../../../../contract/resources/resource.js';
import type { StepSpec } from '../make-case.js';
import type { Random } from '../create-random.js';
import { successStatuses } from '../expected-statuses.js';
import { ownFilter } from './own-filter.js';

// Pages a walk may read past the ones the case's own records fill, before it is said not to end.
const SPARE_PAGES = 3;
// A collection other cases share may be large: the walk stops here, and not ending is only noted.
const SHARED_PAGES = 50;
// Words by which a list's summary or 2xx description promises that its pages together list every record.
const PROMISES_ALL = /\b(all|every)\b/i;

export interface CursorCase {
  readonly id: string;
  readonly name: string;
  readonly description: string;
  readonly steps: StepSpec[];
}

/**
 * The walk of a cursor-paged list (docs/reference/case-kinds.md, pagination): records of the case's own, enough for
 * three pages at a small page size, then the list read page after page by the cursor each answer carries, where
 * the resource model says it is. Undefined where the list takes no cursor, its contract does not say where the
 * next one is, or it has no page size to ask small pages with.
 */
export function cursorCase(
  resource: Resource,
  lists: { readonly create: Operation; readonly list: Operation; readonly page: ParameterSpec | undefined },
  creates: (count: number, fields: Record<string, unknown>) => StepSpec,
  random: Random,
  model: ResourceModel,
): CursorCase | undefined {
  const { create, list, page } = lists;
  const cursor = resource.list?.paging.cursor;
  const next = resource.list?.next;
  const max = page?.schema.maximum;
  if (!cursor || !next || !page || !resource.id || max === undefined) return undefined;
  const size = Math.max(page.schema.minimum ?? 1, Math.min(2, max));
  const count = 2 * size + 1;
  // A nested resource's case lists under a parent of its own, elsewhere a filter value of the case's own keeps
  // other cases' records out: the walked collection holds the case's records alone.
  const filter = resource.parent === undefined ? ownFilter(resource, create, random, model) : undefined;
  const ownCollection = resource.parent !== undefined || filter !== undefined;
  const only = filter ? { [filter.parameter]: filter.value } : {};
  const maxPages = ownCollection ? Math.ceil(count / size) + SPARE_PAGES : SHARED_PAGES;
  const promisesAll = [list.summary, ...list.responses.filter((r) => r.code.startsWith('2')).map((r) => r.description)].some(
    (text) => text !== undefined && PROMISES_ALL.test(text),
  );
  const where = next.in === 'link' ? 'the Link header (rel="next")' : `body.${next.pointer.join('.')}`;
  const op = list.operationId;
  return {
    id: `${cursor}-walk`,
    name: `${op} walked by ${cursor} lists each record once and ends`,
    description: `Given ${count} resources${resource.parent !== undefined ? ' under a parent of the case' : filter ? ` with a ${filter.parameter} of the case's own, listed by it` : ''}, when ${op} is read ${size} at a time, each next page with the ${cursor} the answer before it carried in ${where}, then no page repeats a record of an earlier one, the walk ends within ${maxPages} pages, and ${promisesAll ? `it lists all ${count}` : `whether it lists all ${count} is noted (the contract does not promise every record)`} (cursor-walk${ownCollection ? '' : `; other cases share the collection, so only the first page answered again by a later page than the second fails`}).`,
    steps: [
      creates(count, filter ? { [filter.field]: filter.value } : {}),
      {
        operation: list,
        query: { ...only, [page.name]: size },
        walk: { parameter: cursor, next, maxPages },
        expect: {
          status: successStatuses(list),
          effect: {
            check: 'cursor-walk',
            walkPage: { field: resource.id.name, pointer: resource.listPointer, atLeast: count, ownCollection, promisesAll },
          },
        },
      },
    ],
  };
}
