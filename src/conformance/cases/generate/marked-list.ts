import type { Contract } from '../../../contract/load-contract.js';
import type { Operation } from '../../../contract/operation.js';
import { inferResources } from '../../../contract/resources/infer-resources.js';
import type { Resource } from '../../../contract/resources/resource.js';
import { besideCreate, operationOf } from '../../../contract/resources/resource-roles.js';
import type { NotMade } from './case-kind.js';

/**
 * The list beside a create where a case looks for the marks its creates sent (resource-marks.ts): stored-once and
 * refused-not-stored read a list answer as a bare array of records, so a list that wraps them (`{ items, next }`)
 * has none, and its cases are not made (wrappedListsNotMade says so).
 */
export function markedList(contract: Contract, create: Operation): { resource: Resource; operation: Operation } | undefined {
  const found = besideCreate(inferResources(contract), create, 'list', contract.byId);
  return found?.resource.listPointer.length === 0 ? found : undefined;
}

/** `cases` of each create (that `applies` to) whose list wraps its records, not made, with why. */
export function wrappedListsNotMade(
  contract: Contract,
  cases: (create: string) => string,
  applies: (create: Operation, resource: Resource) => boolean = () => true,
): NotMade[] {
  return inferResources(contract).resources.flatMap((resource) => {
    const create = operationOf(resource, 'create', contract.byId);
    if (!create || !resource.id || resource.stateless || !applies(create, resource)) return [];
    if (!operationOf(resource, 'list', contract.byId) || resource.listPointer.length === 0) return [];
    return [
      {
        operationId: create.operationId,
        cases: cases(create.operationId),
        reason: `its list wraps the records in ${resource.listPointer.join('.')}, where the marks are not looked for`,
      },
    ];
  });
}
