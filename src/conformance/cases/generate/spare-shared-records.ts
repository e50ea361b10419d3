import type { Contract } from '../../../contract/load-contract.js';
import { sharedRecordWrites } from '../../../contract/resources/shared-record-writes.js';
import type { Scenario } from '../scenario.js';
import type { NotMade } from './case-kind.js';

// RFC 9110 §9.2.1: HEAD and OPTIONS to a record's path (the http kind's) change nothing.
const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * A kind's cases less those that write a single record at the top of the API (`/settings`, rule 12), which every
 * client shares and no run made: a refused write (invalid-bodies, auth, media-types) is still a write to a server
 * that wrongly takes it. Only a case that runs alone and puts back what it read (the effects case) may write one.
 * What is left out is said under Not generated, by operation.
 */
export function spareSharedRecords(
  kind: string,
  scenarios: readonly Scenario[],
  contract: Contract,
): { readonly kept: Scenario[]; readonly notMade: NotMade[] } {
  const shared = sharedRecordWrites(contract);
  if (shared.size === 0) return { kept: [...scenarios], notMade: [] };
  const left = new Map<string, number>();
  const kept = scenarios.filter((scenario) => {
    if (scenario.alone) return true;
    const write = scenario.steps.find(
      (step) => shared.has(step.operation.operationId) && !SAFE_METHODS.has(step.method ?? step.operation.method),
    );
    if (write) left.set(write.operation.operationId, (left.get(write.operation.operationId) ?? 0) + 1);
    return write === undefined;
  });
  const notMade = [...left].map(([operationId, count]) => ({
    operationId,
    cases: `${count} ${kind} case${count === 1 ? '' : 's'} of ${operationId}`,
    reason: `${shared.get(operationId)?.path} is one record every client shares and no run made: only the effects case writes it, alone, and puts back what it read`,
  }));
  return { kept, notMade };
}
