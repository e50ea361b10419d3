import type { JsonSchema, Operation, ParameterSpec } from './operation.js';

// The names APIs give a page-size parameter; the seed's `limit` is "maximum number of animals returned".
const PAGE_SIZE = /^(limit|page_?size|per_?page|max_?results|top)$/i;

/** The query parameter that caps how many resources a list answers: an integer page size with a maximum. */
export function pageSizeParameter(list: Operation): ParameterSpec | undefined {
  return list.parameters.find(
    (p) => p.in === 'query' && p.type === 'integer' && PAGE_SIZE.test(p.name) && p.schema.maximum !== undefined,
  );
}

/** The query that asks a list for its largest page (`{ limit: 100 }`), or none when it has no page size. */
export function largestPageQuery(list: Operation): Record<string, number> {
  const page = pageSizeParameter(list);
  const max = page?.schema.maximum;
  return page && max !== undefined ? { [page.name]: max } : {};
}

/**
 * Query parameters that filter a list on a field of its resources: named after a field of `resource` that has an
 * enum, with an enum of their own (listPets' `status`, "filters by availability status").
 */
export function filterParameters(list: Operation, resource: JsonSchema | undefined): ParameterSpec[] {
  const fields = resource?.properties ?? {};
  return list.parameters.filter((p) => p.in === 'query' && p.schema.enum !== undefined && fields[p.name]?.enum !== undefined);
}

/**
 * Query parameters that filter a list on an integer field of the same name (listOrders' `petId`): an integer names
 * one value, and only the items holding it match. The page size is never one.
 */
export function integerFilterParameters(list: Operation, resource: JsonSchema | undefined): ParameterSpec[] {
  const fields = resource?.properties ?? {};
  const page = pageSizeParameter(list);
  return list.parameters.filter(
    (p) => p.in === 'query' && p !== page && p.schema.type === 'integer' && fields[p.name]?.type === 'integer',
  );
}
