import type { Operation, ParameterSpec } from './operation.js';
import { objectShape, type RawSchema } from './resources/object-shape.js';
import type { Resource } from './resources/resource.js';

// The names APIs give a page-size parameter; the seed's `limit` is "maximum number of animals returned".
const PAGE_SIZE = /^(limit|page_?size|per_?page|max_?results|top|size)$/i;

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
 * The list's filters (resources.md rule 6: a query parameter named after a field of the representation) whose
 * parameter (or its array's items) and field both have an enum (listPets' `status`, "filters by availability status"): the values a case
 * can create records with and ask for.
 */
export function filterParameters(list: Operation, resource: Resource): ParameterSpec[] {
  const fields = objectShape(resource.schema)?.properties ?? {};
  const named = new Set(
    (resource.list?.filters ?? []).filter((f) => fields[f.field]?.enum !== undefined).map((f) => f.parameter),
  );
  return list.parameters.flatMap((p) => {
    if (p.in !== 'query' || !named.has(p.name)) return [];
    if (p.schema.enum !== undefined) return [p];
    // A list of enum values (`kind=cat,dog`, style form) asks for one value as the enum would: read as its items.
    const items = p.schema.type === 'array' ? p.schema.items : undefined;
    return items?.enum !== undefined ? [{ ...p, type: items.type, schema: items }] : [];
  });
}

/**
 * Query parameters that filter a list on an integer field of the same name (listOrders' `petId`): an integer names
 * one value, and only the items holding it match. The page size is never one.
 */
export function integerFilterParameters(list: Operation, resource: Resource): ParameterSpec[] {
  const fields = objectShape(resource.schema)?.properties ?? {};
  const page = pageSizeParameter(list);
  const named = new Set(
    (resource.list?.filters ?? [])
      .filter((f) => f.field === f.parameter && [fields[f.field]?.type].flat().includes('integer'))
      .map((f) => f.parameter),
  );
  return list.parameters.filter(
    (p) => p.in === 'query' && p !== page && [p.schema.type].flat().includes('integer') && named.has(p.name),
  );
}

/**
 * Query parameters that filter a list on a free text field of the same name (listAuthors' `country`): a string
 * without enum, pattern or format, on a string field without an enum. The page size and paging parameters are never one.
 */
export function textFilterParameters(list: Operation, resource: Resource): ParameterSpec[] {
  const fields = objectShape(resource.schema)?.properties ?? {};
  const paging = new Set(Object.values(resource.list?.paging ?? {}));
  const named = new Set(
    (resource.list?.filters ?? []).filter((f) => f.field === f.parameter && isFreeText(fields[f.field])).map((f) => f.parameter),
  );
  return list.parameters.filter((p) => p.in === 'query' && !paging.has(p.name) && named.has(p.name) && isFreeText(p.schema));
}

type TextLike = Pick<RawSchema, 'enum' | 'pattern' | 'format'> & { readonly type?: string | readonly string[] };

function isFreeText(schema: TextLike | undefined): boolean {
  return (
    schema !== undefined &&
    [schema.type].flat().includes('string') &&
    schema.enum === undefined &&
    schema.pattern === undefined &&
    schema.format === undefined
  );
}
