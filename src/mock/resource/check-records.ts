import type { Resource } from '../../contract/resources/resource.js';
import type { AdminResource } from './admin-records.js';

/**
 * Why one record given whole (a fixture, a state file's line, an admin replace, a held record under a reloaded
 * contract) cannot be one of the resource's records, or undefined: it must be the contract's representation and
 * carry its id, a positive integer up to 2^53−1 (the store's ids are safe integers) or a string as the id's
 * schema says. `path` names it in the message (`[3]`, `body[0]`).
 */
export function recordProblem({ resource, validate }: AdminResource, record: unknown, path: string): string | undefined {
  let issue: { path: string; message: string } | undefined;
  try {
    [issue] = validate?.(record, path) ?? [];
  } catch (error) {
    // The schema check walks each record once per level: a record nested 100,000 deep exhausts the stack there.
    if (error instanceof RangeError) return `${path}: nested too deeply to check: a record is an object of plain fields`;
    throw error;
  }
  if (issue) return `${issue.path}: ${issue.message}`;
  const idField = resource.id?.name as string;
  const id = (record as Record<string, unknown>)[idField];
  if (numericId(resource)) {
    if (typeof id !== 'number' || !Number.isSafeInteger(id) || id < 1)
      return `${path}.${idField}: must be a positive integer up to ${Number.MAX_SAFE_INTEGER}`;
  } else if (typeof id !== 'string') return `${path}.${idField}: each record needs its id (a string)`;
  return undefined;
}

/**
 * recordProblem, one record after another of one store, and no id used twice in one scope (the parents a nested
 * record is under): what a fixtures file, a state file and an admin replace are checked with.
 */
export function recordChecker(entry: AdminResource): (record: unknown, path: string, scope?: string) => string | undefined {
  const seen = new Set<string>();
  const idField = entry.resource.id?.name as string;
  return (record, path, scope) => {
    const problem = recordProblem(entry, record, path);
    if (problem !== undefined) return problem;
    const id = (record as Record<string, unknown>)[idField];
    const key = `${scope ?? ''}\u0000${String(id)}`;
    if (seen.has(key)) return `${path}.${idField}: ${String(id)} is used by an earlier entry`;
    seen.add(key);
    return undefined;
  };
}

/** The first problem of records given whole as one array (an admin replace), or undefined. */
export function checkRecords(entry: AdminResource, records: readonly unknown[], name: string): string | undefined {
  const check = recordChecker(entry);
  for (const [index, record] of records.entries()) {
    const problem = check(record, `${name}[${index}]`);
    if (problem !== undefined) return problem;
  }
  return undefined;
}

function numericId(resource: Resource): boolean {
  const types = [resource.id?.schema.type].flat();
  return types.includes('integer') || types.includes('number');
}
