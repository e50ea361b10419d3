import {
  filterParameters,
  integerFilterParameters,
  pageSizeParameter,
  textFilterParameters,
} from '../../../contract/list-parameters.js';
import type { Operation, ParameterSpec } from '../../../contract/operation.js';
import type { Resource } from '../../../contract/resources/resource.js';
import { listedRecords } from '../../../contract/resources/resource-roles.js';
import { show } from '../../../contract/judge/show-value.js';
import type { Check } from './check.js';

/**
 * Every list answer, whatever case asked for it, holds what its query allows: no more items than the page size
 * (its default when none is sent), and only items with the value a filter names (a free text filter: items whose
 * text holds it). Only valid queries are judged:
 * what a list does with `limit=0` or an unknown status is not documented.
 */
export const listWithinQuery: Check = {
  id: 'list-within-query',
  severity: 'high',
  clause: 'List animals: limit is the "maximum number of animals returned", default 20; status "filters by availability status"',
  observed: 'documented',
  check: ({ operation, exchange, run }) => {
    const response = exchange.response;
    const role = run.roles.get(operation.operationId);
    if (!response || role?.kind !== 'list' || response.status < 200 || response.status > 299) return undefined;
    const list = listedRecords(role.resource, response.json);
    if (!list) return undefined;
    const query = queryOf(exchange.request.url);
    const { page, filters, texts } = queryParameters(operation, role.resource);
    const bound = page && pageSize(page, query.getAll(page.name));
    if (page && bound !== undefined && list.length > bound) {
      const asked = query.has(page.name) ? `${page.name}=${bound}` : `no ${page.name} (default ${bound})`;
      return {
        title: `the list holds ${list.length} items for ${asked}`,
        received: `${list.length} items`,
        documented: `at most ${bound} items`,
      };
    }
    for (const filter of filters) {
      const values = query.getAll(filter.name);
      const wanted = values.length === 1 ? valueNamed(filter, values[0] as string) : undefined;
      if (wanted === undefined) continue;
      const index = list.findIndex((element) => shown((element as Record<string, unknown> | null)?.[filter.name]) !== wanted);
      if (index === -1) continue;
      return {
        title: `the list filtered by ${filter.name}=${wanted} holds an item whose ${filter.name} is ${show((list[index] as Record<string, unknown> | null)?.[filter.name])}`,
        received: `body[${index}].${filter.name}: ${show((list[index] as Record<string, unknown> | null)?.[filter.name])}`,
        documented: `every item has ${filter.name} ${filter.schema.enum ? show(wanted) : wanted}`,
      };
    }
    for (const filter of texts) {
      const values = query.getAll(filter.name);
      const wanted = values.length === 1 ? plainText(values[0] as string) : undefined;
      if (wanted === undefined) continue;
      const needle = folded(wanted);
      const index = list.findIndex((element) => {
        const own = (element as Record<string, unknown> | null)?.[filter.name];
        return typeof own === 'string' && !folded(own).includes(needle);
      });
      if (index === -1) continue;
      const own = show((list[index] as Record<string, unknown>)[filter.name]);
      return {
        title: `the list filtered by ${filter.name}=${show(wanted)} holds an item whose ${filter.name} is ${own}`,
        received: `body[${index}].${filter.name}: ${own}`,
        documented: `every item's ${filter.name} holds ${show(wanted)} (in any letter case)`,
      };
    }
    return undefined;
  },
};

// A free text filter is judged loosely, so any reading of it passes (equal, a prefix, a part, in any case or accent, as
// database collations compare), and only for a value of ASCII letters, digits and spaces (no LIKE wildcard, escape or
// quote a server may read otherwise): an item whose text does not hold it matches no reading. An item without the
// field is not judged.
function plainText(value: string): string | undefined {
  const trimmed = value.trim();
  return /^[A-Za-z0-9 ]+$/.test(trimmed) ? trimmed : undefined;
}

function folded(text: string): string {
  return text.normalize('NFKD').replace(/\p{M}/gu, '').toLowerCase();
}

// The value a valid filter query names, as the list must show it: an enum value, or an integer in its canonical digits
// (exact: an int64 past 2^53 too). Undefined for a value the contract does not allow (status=SOLD, petId=abc).
function valueNamed(filter: ParameterSpec, value: string): string | undefined {
  // A query value is text: an enum of integers (`role: [10, 20, 30]`) is named by its digits.
  if (filter.schema.enum) return filter.schema.enum.some((known) => shown(known) === value) ? value : undefined;
  if (!/^-?[0-9]{1,19}$/.test(value)) return undefined;
  const n = BigInt(value);
  const bits = filter.schema.format === 'int32' ? 31n : 63n;
  const { minimum, maximum } = filter.schema;
  const within =
    n >= -(2n ** bits) &&
    n < 2n ** bits &&
    (minimum === undefined || n >= BigInt(Math.ceil(minimum))) &&
    (maximum === undefined || n <= BigInt(Math.floor(maximum)));
  return within ? n.toString() : undefined;
}

function shown(value: unknown): unknown {
  return typeof value === 'number' || typeof value === 'bigint' ? String(value) : value;
}

function queryOf(url: string): URLSearchParams {
  const at = url.indexOf('?');
  return new URLSearchParams(at === -1 ? '' : url.slice(at + 1).split('#')[0]);
}

// A page size given once as a whole number within its bounds, or absent with a default; else nothing is fixed.
function pageSize(page: ParameterSpec, values: readonly string[]): number | undefined {
  if (values.length === 0) return typeof page.schema.default === 'number' ? page.schema.default : undefined;
  if (values.length !== 1 || !/^[0-9]{1,16}$/.test(values[0] as string)) return undefined;
  const value = Number(values[0]);
  const { minimum = Number.NEGATIVE_INFINITY, maximum = Number.POSITIVE_INFINITY } = page.schema;
  return value >= minimum && value <= maximum ? value : undefined;
}

// An operation's page size and filters, read once: this check runs on every answer.
const known = new WeakMap<
  Operation,
  { readonly page: ParameterSpec | undefined; readonly filters: ParameterSpec[]; readonly texts: ParameterSpec[] }
>();

function queryParameters(operation: Operation, resource: Resource) {
  let found = known.get(operation);
  if (!found) {
    found = {
      page: pageSizeParameter(operation),
      filters: [...filterParameters(operation, resource), ...integerFilterParameters(operation, resource)],
      texts: textFilterParameters(operation, resource),
    };
    known.set(operation, found);
  }
  return found;
}
