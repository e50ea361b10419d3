import type { Contract } from '../../../contract/load-contract.js';
import type { Operation } from '../../../contract/operation.js';
import type { Scenario } from '../scenario.js';
import { successStatuses } from './expected-statuses.js';
import { listedIds } from './listed-ids.js';
import { makeCase } from './make-case.js';

/**
 * A read of one resource by an id taken from a read of its collection: GET the list, then GET its first item
 * by its id, expecting the documented success with that id. It creates nothing, so --read-only runs it too
 * (the only way such a run reaches the item's 200); a list that is empty leaves it skipped, with the reason.
 */
export function listedReadCases(kind: string, contract: Contract): Scenario[] {
  return listedIds(contract).map(({ resource, list, get, field, param, value }) =>
    makeCase({
      kind,
      id: `${get.operationId}/listed-id`,
      name: `${get.operationId} answers for an id ${list.operationId} lists`,
      description: describe(field, list, get),
      steps: [
        { operation: list, capture: 'list', expect: { status: successStatuses(list) } },
        {
          operation: get,
          params: { [param]: value },
          expect: { status: successStatuses(get), body: { [field]: value } },
          unlessMissing: `${list.operationId} listed no ${resource.name}: no id to read`,
        },
      ],
    }),
  );
}

function describe(field: string, list: Operation, get: Operation): string {
  return `Given the ${field} of the first item ${list.operationId} answers, when ${get.operationId} is called with it, then the answer is ${successStatuses(get).join(' or ')} with that ${field} (skipped when the list is empty).`;
}
