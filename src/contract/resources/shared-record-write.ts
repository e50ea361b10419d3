import type { Contract } from '../load-contract.js';
import type { Operation } from '../operation.js';
import { inferResources } from './infer-resources.js';
import type { Singleton } from './resource.js';

/**
 * The single record at the top of the API (`/settings`, rule 12) that this operation writes, if it writes one.
 * Every client shares it, and no run made it: a case that writes it must put back what it read, as the effects
 * case does, or a run against staging leaves the settings as its last write left them.
 */
export function sharedRecordWritten(contract: Contract, operation: Operation): Singleton | undefined {
  if (operation.method !== 'PUT' && operation.method !== 'PATCH') return undefined;
  return inferResources(contract).singletons?.find(
    (s) => s.parent === undefined && s.operations.some((o) => o.kind !== 'get' && o.operationId === operation.operationId),
  );
}
