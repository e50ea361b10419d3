import type { Operation, ParameterSpec } from '../../../../contract/operation.js';
import type { Resource } from '../../../../contract/resources/resource.js';
import type { StepSpec } from '../make-case.js';
import { successStatuses } from '../expected-statuses.js';

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
  list: Operation,
  page: ParameterSpec | undefined,
  creates: (count: number) => StepSpec,
): CursorCase | undefined {
  const cursor = resource.list?.paging.cursor;
  const next = resource.list?.next;
  const max = page?.schema.maximum;
  if (!cursor || !next || !page || !resource.id || max === undefined) return undefined;
  const size = Math.max(page.schema.minimum ?? 1, Math.min(2, max));
  const count = 2 * size + 1;
  // A nested resource's case lists under a parent of its own: the collection holds the case's records alone.
  const ownCollection = resource.parent !== undefined;
  const maxPages = ownCollection ? Math.ceil(count / size) + SPARE_PAGES : SHARED_PAGES;
  const promisesAll = [list.summary, ...list.responses.filter((r) => r.code.startsWith('2')).map((r) => r.description)].some(
    (text) => text !== undefined && PROMISES_ALL.test(text),
  );
  const where = next.in === 'link' ? 'the Link header (rel="next")' : `body.${next.pointer.join('.')}`;
  const op = list.operationId;
  return {
    id: `${cursor}-walk`,
    name: `${op} walked by ${cursor} lists each record once and ends`,
    description: `Given ${count} resources${ownCollection ? ' under a parent of the case' : ''}, when ${op} is read ${size} at a time, each next page with the ${cursor} the answer before it carried in ${where}, then no page repeats a record of an earlier one, the walk ends within ${maxPages} pages, and ${promisesAll ? 'it lists' : 'the run notes (the contract promises no complete list) whether it lists'} all ${count} (cursor-walk).`,
    steps: [
      creates(count),
      {
        operation: list,
        query: { [page.name]: size },
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
