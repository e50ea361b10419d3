import { describeIssues } from '../../contract/compile-schema.js';
import type { AdminResource } from './admin-records.js';

/**
 * Why records given whole (fixtures, an admin replace) cannot be a resource's records, or undefined: each must be
 * the contract's representation, carry its id (a string or a number) and not repeat an earlier record's id.
 */
export function checkRecords(
  { resource, validate }: AdminResource,
  records: readonly unknown[],
  name: string,
): string | undefined {
  const idField = resource.id?.name as string;
  const seen = new Set<string>();
  for (const [index, record] of records.entries()) {
    const at = `${name}[${index}]`;
    const issues = validate?.(record, at) ?? [];
    if (issues.length > 0) return describeIssues(issues);
    const id = (record as Record<string, unknown>)[idField];
    if (typeof id !== 'string' && typeof id !== 'number')
      return `${at}.${idField}: each record needs its id (a string or a number)`;
    if (seen.has(`${typeof id}:${id}`)) return `${at}.${idField}: ${id} is used by an earlier record`;
    seen.add(`${typeof id}:${id}`);
  }
  return undefined;
}
