import { show } from '../../../contract/judge/show-value.js';
import { arrayAt } from '../../../contract/resources/resource-roles.js';
import type { WalkPage } from '../../cases/scenario.js';

/** The id a listed record shows as text (bigints exact), or undefined when it has none. */
export function idOf(item: unknown, field: string): string | undefined {
  const id = item !== null && typeof item === 'object' ? (item as Record<string, unknown>)[field] : undefined;
  return id === undefined ? undefined : show(id);
}

interface Seen {
  readonly number: number;
  readonly repeated: readonly string[];
  /** Every record of the page was on an earlier page: the cursor was not followed. */
  readonly whole: boolean;
  /** A third page or later answered the first page again, record for record: the cursor is ignored. */
  readonly firstAgain: boolean;
  readonly distinct: number;
  readonly last: boolean;
  readonly capped: boolean;
}

function seen(walk: WalkPage, body: unknown): Seen | undefined {
  const page = walk.page;
  const items = arrayAt(body, walk.pointer);
  if (!page || !items) return undefined;
  const ids = items.map((item) => idOf(item, walk.field)).filter((id): id is string => id !== undefined);
  const repeated = ids.filter((id) => page.earlier.has(id));
  const distinct = page.earlier.size + new Set(ids.filter((id) => !page.earlier.has(id))).size;
  const firstAgain = page.number >= 3 && ids.length > 0 && ids.join('\n') === page.first.join('\n');
  return { ...page, repeated, whole: ids.length > 0 && repeated.length === ids.length, firstAgain, distinct };
}

// Guards against false alarms (docs/reference/case-kinds.md, pagination): where other cases write to the listed
// collection, a create or delete between two pages may shift records onto the next page (even a whole page, once),
// or the collection may be too large to walk; only the first page answered again by a later page than the second
// fails there, and the rest is noted as not verified. Missing records fail only where the contract promises the
// walk lists every record.
export function walkProblems(walk: WalkPage, body: unknown, documented: string[]): string[] {
  documented.push(
    `pages that repeat no record of an earlier page, a walk that ends${walk.promisesAll ? `, and at least ${walk.atLeast} records listed by its end` : ''}`,
  );
  const page = seen(walk, body);
  if (!page) return walk.page ? [`the list answer holds no array at ${['body', ...walk.pointer].join('.')}`] : [];
  const problems: string[] = [];
  if (page.firstAgain || (page.whole && walk.ownCollection))
    problems.push(
      `page ${page.number} answered records of an earlier page again (${walk.field} ${few(page.repeated)}): its cursor was not followed`,
    );
  else if (page.repeated.length > 0 && walk.ownCollection)
    problems.push(`page ${page.number} repeats ${walk.field} ${few(page.repeated)} of an earlier page`);
  if (page.capped && walk.ownCollection)
    problems.push(
      `the walk did not end: page ${page.number} still carried a next cursor, past the ${walk.atLeast} records the collection holds`,
    );
  if (page.last && walk.promisesAll && page.distinct < walk.atLeast) problems.push(missing(walk, page));
  return problems;
}

export function walkUnverified(walk: WalkPage, body: unknown): string | undefined {
  const page = seen(walk, body);
  if (!page) return undefined;
  if (page.repeated.length > 0 && !page.firstAgain && !walk.ownCollection)
    return `page ${page.number} repeats ${walk.field} ${few(page.repeated)} of an earlier page: other cases' writes may have shifted them, so whether the cursor keeps its place is not verified`;
  if (page.capped && !walk.ownCollection)
    return `the walk was cut at page ${page.number} with a next cursor still given: whether it ends is not verified`;
  if (page.last && !walk.promisesAll && page.distinct < walk.atLeast)
    return `${missing(walk, page)}; the contract does not say the walk lists every record, so this is not judged`;
  return undefined;
}

function missing(walk: WalkPage, page: Seen): string {
  return `the walk ended at page ${page.number} having listed ${page.distinct} records, fewer than the ${walk.atLeast} the case created`;
}

function few(ids: readonly string[]): string {
  return ids.length > 5 ? `${ids.slice(0, 5).join(', ')} and ${ids.length - 5} more` : ids.join(', ');
}
