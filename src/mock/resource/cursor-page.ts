import type { NextCursor } from '../../contract/resources/resource.js';
import type { ListQuery, RecordStore } from '../store/record-store.js';

/** A page read one record past its size, and what its answer says of the next page. */
export interface CursorPage {
  readonly parts: readonly string[];
  /** JSON members to close the wrapping object with (`,"next":"20"`): empty for a Link header or a bare array. */
  readonly members: string;
  readonly headers: Readonly<Record<string, string>> | undefined;
  /** The next page's cursor, undefined on the last page. */
  readonly cursor: string | undefined;
}

/**
 * The next page of a cursor-paged list, where the resource model says the answer carries it (docs/reference/resources.md
 * rule 7). The mock's cursor is a keyset one: the store position of the page's last record, as text, which
 * readStoreQuery reads back as "older than that one". An offset would move under a client walking the list while
 * others write to it (a record created meanwhile pushed the last one of a page onto the next page as well, a
 * deleted one made a record skip a page); a position stays put. It is handed out only when one more record exists
 * past the page, so the last page says there is none (the member is left out, the Link header not sent) and a
 * walk of the list ends.
 */
export function cursorPage(
  store: Pick<RecordStore, 'listPage'>,
  query: ListQuery,
  next: NextCursor,
  nextUrl: (cursor: string) => string,
): CursorPage {
  const { json: parts, positions } = store.listPage({ ...query, limit: query.limit + 1 });
  const more = parts.length > query.limit;
  if (more) parts.length = query.limit;
  // A page of none (limit=0) stands where it was asked for: its cursor is the one it was given, if any.
  const place = more ? (query.limit > 0 ? positions[query.limit - 1] : query.before) : undefined;
  const cursor = place === undefined ? undefined : String(place);
  if (cursor === undefined) return { parts, members: '', headers: undefined, cursor };
  if (next.in === 'link') return { parts, members: '', headers: { Link: `<${nextUrl(cursor)}>; rel="next"` }, cursor };
  const member = next.pointer.reduceRight((inner, name) => `{${JSON.stringify(name)}:${inner}}`, JSON.stringify(cursor));
  // `{"next":"20"}` without its braces: a member of the object that wraps the records.
  return { parts, members: `,${member.slice(1, -1)}`, headers: undefined, cursor };
}
