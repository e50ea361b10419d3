import { filterParameters, integerFilterParameters, pageSizeParameter } from '../../../contract/list-parameters.js';
import type { Operation, ParameterSpec } from '../../../contract/operation.js';
import type { Resource } from '../../../contract/resources/resource.js';
import { listedRecords } from '../../../contract/resources/resource-roles.js';
import { show } from '../../../contract/judge/show-value.js';
import type { Check } from './check.js';

/**
 * Every list answer, whatever case asked for it, holds what its query allows: no more items than the page size
 * (its default when none is sent), and only items with the value a filter names. Only valid queries are judged:
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
    const { page, filters } = queryParameters(operation, role.resource);
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
    return undefined;
  },
};

// The value a valid filter query names, as the list must show it: an enum value, or an integer in its canonical digits
// (exact: an int64 past 2^53 too). Undefined for a value the contract does not allow (status=SOLD, petId=abc).
function valueNamed(filter: ParameterSpec, value: string): string | undefined {
  if (filter.schema.enum) return filter.schema.enum.includes(value) ? value : undefined;
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
const known = new WeakMap<Operation, { readonly page: ParameterSpec | undefined; readonly filters: ParameterSpec[] }>();

function queryParameters(operation: Operation, resource: Resource) {
  let found = known.get(operation);
  if (!found) {
    found = {
      page: pageSizeParameter(operation),
      filters: [...filterParameters(operation, resource), ...integerFilterParameters(operation, resource)],
    };
    known.set(operation, found);
  }
  return found;
}
