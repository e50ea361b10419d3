import type { Operation } from '../operation.js';
import { findNextCursor } from './next-cursor.js';
import { type ObjectShape, schemaTypes } from './object-shape.js';
import type { ListQuery, PagingRole } from './resource.js';

// The names APIs give their paging parameters (the seed's `limit`: "maximum number of animals returned").
const PAGING: readonly (readonly [PagingRole, RegExp])[] = [
  ['limit', /^(limit|page_?size|per_?page|max_?results|top|size)$/i],
  ['offset', /^(offset|skip|start)$/i],
  ['page', /^(page|page_?number|page_?no)$/i],
  ['cursor', /^(cursor|after|page_?token|next_?token|starting_?after|continuation_?token)$/i],
];

/**
 * A list's query parameters by what they do (docs/resources.md rule 6): paging names first, then parameters that
 * name a scalar field of the representation, which filter (`?status=sold`). The rest are listed as ignored: a
 * list answers as if they were absent. A cursor comes with where the answer carries the next one (findNextCursor).
 */
export function readListQuery(list: Operation, shape: ObjectShape, pointer: readonly string[]): ListQuery {
  const filters: { parameter: string; field: string }[] = [];
  const paging: Partial<Record<PagingRole, string>> = {};
  const ignored: string[] = [];
  for (const parameter of list.parameters) {
    if (parameter.in !== 'query') continue;
    const role = PAGING.find(([, pattern]) => pattern.test(parameter.name))?.[0];
    if (role !== undefined && paging[role] === undefined) {
      paging[role] = parameter.name;
      continue;
    }
    const field = shape.properties[parameter.name];
    const scalar = schemaTypes(field).some((t) => t === 'string' || t === 'integer' || t === 'number' || t === 'boolean');
    if (field !== undefined && scalar) filters.push({ parameter: parameter.name, field: parameter.name });
    else ignored.push(parameter.name);
  }
  const next = findNextCursor(list, paging.cursor, pointer);
  return { filters, paging, ignored, ...(next ? { next } : {}) };
}
