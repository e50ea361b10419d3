import type { Operation } from '../../contract/operation.js';
import { objectShape, schemaTypes } from '../../contract/resources/object-shape.js';
import type { Resource } from '../../contract/resources/resource.js';
import { mockError } from '../error-codes.js';
import type { ListQuery } from './record-store.js';

// A list whose contract declares no page size still answers a bounded page: the mock's choice, documented.
export const UNPAGED_LIMIT = 1000;

/**
 * The store query a list request asks for, read through the resource's list query (docs/resources.md rule 6):
 * the page size (else its declared default, else its declared maximum, at most UNPAGED_LIMIT), the offset from an
 * offset, a page number or a cursor the mock itself handed out (a cursor is the next page's offset, as text), and
 * the filters, each value read as its field's type (`?petId=7` finds the integer 7). The request was validated
 * against the contract before: this only reads it.
 */
export function readStoreQuery(resource: Resource, list: Operation, query: URLSearchParams): Omit<ListQuery, 'scope'> {
  const paging = resource.list?.paging ?? {};
  const size = list.parameters.find((p) => p.in === 'query' && p.name === paging.limit);
  const fallback =
    typeof size?.defaultValue === 'number' ? size.defaultValue : Math.min(size?.schema.maximum ?? UNPAGED_LIMIT, UNPAGED_LIMIT);
  const limit = whole(query, paging.limit) ?? fallback;
  const page = whole(query, paging.page);
  const offset =
    whole(query, paging.offset) ?? (page !== undefined ? Math.max(0, page - 1) * limit : whole(query, paging.cursor)) ?? 0;
  const shape = objectShape(resource.schema);
  const filters: Record<string, unknown> = {};
  for (const { parameter, field } of resource.list?.filters ?? []) {
    const text = query.get(parameter);
    if (text !== null) filters[field] = typed(text, schemaTypes(shape?.properties[field]));
  }
  return { limit, offset, filters };
}

function whole(query: URLSearchParams, name: string | undefined): number | undefined {
  const text = name === undefined ? null : query.get(name);
  if (text === null) return undefined;
  if (!/^\d{1,15}$/.test(text)) {
    throw mockError('invalid_parameter', `query.${name}: must be a whole number the mock gave out (got ${text.slice(0, 20)})`);
  }
  return Number(text);
}

// Path and query text become the field's JSON type, so that the index (keyed by JSON value) finds the record.
function typed(text: string, types: readonly string[]): unknown {
  if ((types.includes('integer') || types.includes('number')) && text.trim() !== '' && Number.isFinite(Number(text))) {
    const number = Number(text);
    return Number.isSafeInteger(number) || !/^-?\d+$/.test(text) ? number : BigInt(text);
  }
  if (types.includes('boolean') && (text === 'true' || text === 'false')) return text === 'true';
  return text;
}
