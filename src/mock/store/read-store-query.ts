import type { Operation } from '../../contract/operation.js';
import { objectShape, schemaTypes } from '../../contract/resources/object-shape.js';
import type { Resource } from '../../contract/resources/resource.js';
import { mockError } from '../error-codes.js';
import type { ListQuery } from './record-store.js';

// A list whose contract declares no page size still answers a bounded page: the mock's choice, documented.
export const UNPAGED_LIMIT = 1000;

/** What a list's query is read with, worked out once per list operation (this is every list request). */
interface QueryPlan {
  readonly paging: Readonly<Partial<Record<'limit' | 'offset' | 'page' | 'cursor', string>>>;
  readonly fallback: number;
  readonly filters: readonly { readonly parameter: string; readonly field: string; readonly types: readonly string[] }[];
}

const plans = new WeakMap<Operation, QueryPlan>();

function planOf(resource: Resource, list: Operation): QueryPlan {
  let plan = plans.get(list);
  if (plan === undefined) {
    const paging = resource.list?.paging ?? {};
    const size = list.parameters.find((p) => p.in === 'query' && p.name === paging.limit);
    const fallback =
      typeof size?.defaultValue === 'number' ? size.defaultValue : Math.min(size?.schema.maximum ?? UNPAGED_LIMIT, UNPAGED_LIMIT);
    const shape = objectShape(resource.schema);
    const filters = (resource.list?.filters ?? []).map(({ parameter, field }) => ({
      parameter,
      field,
      types: schemaTypes(shape?.properties[field]),
    }));
    plan = { paging, fallback, filters };
    plans.set(list, plan);
  }
  return plan;
}

/**
 * The store query a list request asks for, read through the resource's list query (docs/resources.md rule 6):
 * the page size (else its declared default, else its declared maximum, at most UNPAGED_LIMIT), the offset from an
 * offset or a page number, the place a cursor the mock itself handed out stands for (the store position of the
 * last record of the page before, as text: cursor-page.ts), and the filters, each value read as its field's type
 * (`?petId=7` finds the integer 7). The request's query values were read and validated against the contract
 * before: this only reads them.
 */
export function readStoreQuery(
  resource: Resource,
  list: Operation,
  query: Readonly<Record<string, unknown>>,
  scope?: string,
): ListQuery {
  const { paging, fallback, filters: planned } = planOf(resource, list);
  const limit = amount(query, paging.limit) ?? fallback;
  const page = amount(query, paging.page);
  const offset = amount(query, paging.offset) ?? (page !== undefined ? Math.max(0, page - 1) * limit : 0);
  const before = whole(query, paging.cursor);
  let filters: Record<string, unknown> | undefined;
  for (const { parameter, field, types } of planned) {
    const value = query[parameter];
    if (value === undefined) continue;
    filters ??= {};
    filters[field] =
      typeof value === 'number' || typeof value === 'bigint' || typeof value === 'boolean' ? value : typed(String(value), types);
  }
  return before === undefined ? { limit, offset, filters, scope } : { limit, offset, before, filters, scope };
}

/**
 * A page size, offset or page number as the contract let it through: one it sets no bound for (-1 where there is
 * no minimum, int64's largest where there is no maximum) is read as the nearest that means something, 0 or the
 * largest safe integer, rather than refused with a 400 the operation may not document.
 */
function amount(query: Readonly<Record<string, unknown>>, name: string | undefined): number | undefined {
  const value = name === undefined ? undefined : query[name];
  if (typeof value === 'number' && Number.isFinite(value))
    return Math.min(Math.max(0, Math.trunc(value)), Number.MAX_SAFE_INTEGER);
  if (typeof value === 'bigint') return value < 0n ? 0 : Number.MAX_SAFE_INTEGER;
  return whole(query, name);
}

function whole(query: Readonly<Record<string, unknown>>, name: string | undefined): number | undefined {
  const value = name === undefined ? undefined : query[name];
  if (value === undefined) return undefined;
  if (typeof value === 'number' && Number.isSafeInteger(value) && value >= 0) return value;
  const text = String(value);
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
