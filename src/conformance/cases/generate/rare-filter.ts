import { filterParameters } from '../../../contract/list-parameters.js';
import type { Operation } from '../../../contract/operation.js';
import type { Resource } from '../../../contract/resources/resource.js';

/**
 * The list's first filter at its last enum value (`{ status: 'sold' }`), the least likely to fill a page; {} when it
 * has none. Sent in refused bodies and asked of the list, it lets a target that already holds more resources than a
 * page show whether a refused create was stored (refused-not-stored), where the whole list's first page is full.
 */
export function rareFilter(list: Operation, resource: Resource): Record<string, unknown> {
  const filter = filterParameters(list, resource)[0];
  const value = filter?.schema.enum?.at(-1);
  return filter === undefined || value === undefined ? {} : { [filter.name]: value };
}
