import type { Contract } from '../load-contract.js';
import { inferResources } from './infer-resources.js';
import type { Singleton } from './resource.js';

/**
 * The writes (PUT, PATCH) of each single record at the top of the API (`/settings`, rule 12), by operationId.
 * Every client shares such a record, and no run made it: a case that writes it must put back what it read, as the
 * effects case does, or a run against staging leaves the settings as its last write left them.
 */
export function sharedRecordWrites(contract: Contract): ReadonlyMap<string, Singleton> {
  const writes = new Map<string, Singleton>();
  for (const singleton of inferResources(contract).singletons ?? []) {
    if (singleton.parent !== undefined) continue;
    for (const op of singleton.operations) if (op.kind !== 'get') writes.set(op.operationId, singleton);
  }
  return writes;
}
