import type { Contract } from '../../../contract/load-contract.js';
import type { Operation } from '../../../contract/operation.js';
import { inferResources } from '../../../contract/resources/infer-resources.js';
import type { Resource } from '../../../contract/resources/resource.js';
import { besideCreate } from '../../../contract/resources/resource-roles.js';

/**
 * The list beside a create where a case looks for the marks its creates sent (resource-marks.ts): stored-once and
 * refused-not-stored read its records where its list pointer leads (`{ items, next }` too).
 */
export function markedList(contract: Contract, create: Operation): { resource: Resource; operation: Operation } | undefined {
  return besideCreate(inferResources(contract), create, 'list', contract.byId);
}
