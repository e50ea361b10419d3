import type { NextCursor } from '../../contract/resources/resource.js';
import type { ListQuery } from '../store/record-store.js';

/** A page read one record past its size, and what its answer says of the next page. */
export interface CursorPage {
  readonly parts: readonly string[];
  /** JSON members to close the wrapping object with (`,"next":"20"`): empty for a Link header or a bare array. */
  readonly members: string;
  readonly headers: Readonly<Record<string, string>> | undefined;
}

/**
 * The next page of a cursor-paged list, where the resource model says the answer carries it (docs/reference/resources.md
 * rule 7): the mock's cursor is the next page's offset, as text, which readStoreQuery reads back. It is handed out
 * only when one more record exists past the page, so the last page says there is none (the member is left out,
 * the Link header not sent) and a walk of the list ends.
 */
export function cursorPage(
  read: (query: ListQuery) => string[],
  query: ListQuery,
  next: NextCursor,
  nextUrl: (cursor: string) => string,
): CursorPage {
  const parts = read({ ...query, limit: query.limit + 1 });
  const more = parts.length > query.limit;
  if (more) parts.length = query.limit;
  const cursor = more ? String((query.offset ?? 0) + query.limit) : undefined;
  if (cursor === undefined) return { parts, members: '', headers: undefined };
  if (next.in === 'link') return { parts, members: '', headers: { Link: `<${nextUrl(cursor)}>; rel="next"` } };
  const member = next.pointer.reduceRight((inner, name) => `{${JSON.stringify(name)}:${inner}}`, JSON.stringify(cursor));
  // `{"next":"20"}` without its braces: a member of the object that wraps the records.
  return { parts, members: `,${member.slice(1, -1)}`, headers: undefined };
}
