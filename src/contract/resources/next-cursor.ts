import type { Operation } from '../operation.js';
import { objectShape, type RawSchema, schemaTypes } from './object-shape.js';
import { answerSchema } from './representation.js';
import type { NextCursor } from './resource.js';

// The names APIs give the next page's cursor in a list answer: `next` of `{ items, next }`, Stripe-like
// `next_cursor`, Google's `nextPageToken`, Azure's `continuationToken`.
const NEXT = /^(next|next_?cursor|cursor|next_?page_?token|next_?token|continuation_?token)$/i;
// Objects of the answer that may hold it (`{ items, page: { next } }`).
const HOLDERS = /^(page|paging|pagination|meta|cursor|cursors|links)$/i;

/**
 * Where a cursor-paged list's answer carries the next page's cursor (docs/reference/resources.md rule 7): a string property
 * named like NEXT of the wrapping object, or of an object in it named like HOLDERS; else a `Link` header the 2xx
 * answer declares (RFC 8288, `rel="next"`). Undefined when the list takes no cursor or its contract says neither.
 */
export function findNextCursor(list: Operation, cursor: string | undefined, pointer: readonly string[]): NextCursor | undefined {
  if (cursor === undefined) return undefined;
  const shape = pointer.length > 0 ? objectShape(answerSchema(list)) : undefined;
  const field = shape && nextField(shape.properties);
  if (field) return { in: 'body', pointer: field };
  const link = list.responses.some((r) => r.code.startsWith('2') && r.headers.some((h) => h.name.toLowerCase() === 'link'));
  return link ? { in: 'link' } : undefined;
}

function nextField(properties: Readonly<Record<string, unknown>>): string[] | undefined {
  const own = Object.keys(properties).find((name) => NEXT.test(name) && isText(properties[name]));
  if (own !== undefined) return [own];
  for (const [name, property] of Object.entries(properties)) {
    const inner = HOLDERS.test(name) ? objectShape(property as RawSchema) : undefined;
    const found = inner && Object.keys(inner.properties).find((n) => NEXT.test(n) && isText(inner.properties[n]));
    if (found !== undefined) return [name, found];
  }
  return undefined;
}

function isText(schema: unknown): boolean {
  return schemaTypes(schema as RawSchema).includes('string');
}

/**
 * The next page's cursor in a list answer, read where `next` says: undefined at the walk's end (null, empty, or
 * absent). A Link header's next URL gives the cursor parameter's value in it.
 */
export function readNextCursor(next: NextCursor, cursor: string, body: unknown, link: string | undefined): string | undefined {
  if (next.in === 'body') {
    let at = body;
    for (const name of next.pointer) {
      if (at === null || typeof at !== 'object' || Array.isArray(at)) return undefined;
      at = (at as Record<string, unknown>)[name];
    }
    return typeof at === 'string' && at !== '' ? at : undefined;
  }
  const target = /<([^>]*)>\s*;[^,]*\brel="?next"?/i.exec(link ?? '')?.[1];
  if (target === undefined) return undefined;
  try {
    return new URL(target, 'http://link.invalid').searchParams.get(cursor) ?? undefined;
  } catch {
    return undefined;
  }
}

/**
 * Whether a list answer says more records follow its page, whatever the list's contract says about paging: a
 * `Link` header with `rel="next"` (RFC 8288), or a non-empty next member (named like NEXT, as text or as a
 * HAL/JSON:API link object `{ href }`) of an object that wraps the records or of one in it named like HOLDERS or
 * `_links` (Django REST framework's `{ count, next, results }`, HAL's `{ _links: { next: { href } } }`).
 */
export function showsLaterPage(body: unknown, pointer: readonly string[], link: string | undefined): boolean {
  if (/<[^>]*>\s*;[^,]*\brel="?next"?/i.test(link ?? '')) return true;
  let at = body;
  for (const name of [undefined, ...pointer.slice(0, -1)]) {
    if (name !== undefined) at = isObject(at) ? at[name] : undefined;
    if (!isObject(at)) return false;
    for (const [member, value] of Object.entries(at)) {
      if (NEXT.test(member) ? nonEmptyNext(value) : isLinkHolder(member) && isObject(value) && holdsNext(value)) return true;
    }
  }
  return false;
}

function isLinkHolder(name: string): boolean {
  return HOLDERS.test(name) || name === '_links';
}

function holdsNext(holder: Record<string, unknown>): boolean {
  return Object.entries(holder).some(([name, value]) => NEXT.test(name) && nonEmptyNext(value));
}

function nonEmptyNext(value: unknown): boolean {
  const text = isObject(value) ? value.href : value;
  return typeof text === 'string' && text !== '';
}

function isObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}
