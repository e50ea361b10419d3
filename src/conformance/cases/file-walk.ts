import type { Contract } from '../../contract/load-contract.js';
import type { Operation } from '../../contract/operation.js';
import { inferResources } from '../../contract/resources/infer-resources.js';
import { resourceRoles } from '../../contract/resources/resource-roles.js';
import type { ParsedScenarioFile, RawStep } from './parse-scenario-file.js';
import type { CursorWalk, ResourceEffect } from './scenario.js';

// A walk in a file that says no more stops here: a collection others share may be large.
const DEFAULT_MAX_PAGES = 50;

/**
 * A scenario step's `walk` (docs/reference/scenario-format.md): the list read page after page by the cursor each
 * answer carries, where the resource model says it goes, each page judged by the step's `expect` and by
 * cursor-walk. Only a list the model finds a cursor parameter and a next cursor for can be walked; any other step
 * with `walk` is a scenario error naming its line. Without `ownCollection`, other cases may write to the list
 * while it is walked, and cursor-walk holds it to what that allows (checks.md).
 */
export function fileWalk(
  parsed: ParsedScenarioFile,
  contract: Contract,
  operation: Operation,
  raw: RawStep,
  at: (string | number)[],
): { readonly walk: CursorWalk; readonly effect: ResourceEffect } | undefined {
  if (raw.walk === undefined || raw.walk === false) return undefined;
  const given = raw.walk === true ? {} : raw.walk;
  const role = resourceRoles(inferResources(contract)).get(operation.operationId);
  const resource = role?.kind === 'list' ? role.resource : undefined;
  const parameter = resource?.list?.paging.cursor;
  const next = resource?.list?.next;
  const field = resource?.id?.name;
  if (!resource || parameter === undefined || next === undefined || field === undefined) {
    const why = !resource
      ? 'it is not the list of a resource the contract keeps records for'
      : parameter === undefined
        ? 'its list takes no cursor parameter'
        : 'its contract does not say where an answer carries the next cursor (a field such as next, or a Link header)';
    parsed.fail([...at, 'walk'], `${operation.operationId} cannot be walked: ${why} (docs/reference/resources.md, rule 7)`);
  }
  if (raw.repeat !== undefined) parsed.fail([...at, 'walk'], 'give walk or repeat, not both');
  const walkPage = {
    field: field as string,
    pointer: resource?.listPointer ?? [],
    atLeast: given.atLeast ?? 0,
    ownCollection: given.ownCollection === true,
    // A count the file asks for is the file's own promise: fewer records by the walk's end fail.
    promisesAll: given.atLeast !== undefined,
  };
  return {
    walk: { parameter: parameter as string, next: next as CursorWalk['next'], maxPages: given.maxPages ?? DEFAULT_MAX_PAGES },
    effect: { check: 'cursor-walk', walkPage },
  };
}
