import type { Contract } from '../../../contract/load-contract.js';
import type { Operation } from '../../../contract/operation.js';
import { inferResources } from '../../../contract/resources/infer-resources.js';
import type { Resource } from '../../../contract/resources/resource.js';
import type { Scenario } from '../scenario.js';
import { successStatuses } from './expected-statuses.js';
import { makeCase } from './make-case.js';

/**
 * A read of one resource by an id taken from a read of its collection: GET the list, then GET its first item
 * by its id, expecting the documented success with that id. It creates nothing, so --read-only runs it too
 * (the only way such a run reaches the item's 200); a list that is empty leaves it skipped, with the reason.
 * Top-level resources only: a nested one needs its parents' ids as well.
 */
export function listedReadCases(kind: string, contract: Contract): Scenario[] {
  const byId = new Map(contract.operations.map((op) => [op.operationId, op]));
  return inferResources(contract).resources.flatMap((resource): Scenario[] => {
    const role = (name: string) => resource.operations.find((op) => op.kind === name);
    const [list, get] = [role('list'), role('get')].map((op) => (op === undefined ? undefined : byId.get(op.operationId)));
    const param = role('get')?.pathParameters;
    if (!list || !get || !resource.id || resource.parent !== undefined || param?.length !== 1 || needsQuery(list)) return [];
    const id = `{{list.body.${[...resource.listPointer, '0', resource.id.name].join('.')}}}`;
    return [
      makeCase({
        kind,
        id: `${get.operationId}/listed-id`,
        name: `${get.operationId} answers for an id ${list.operationId} lists`,
        description: describe(resource, list, get),
        steps: [
          { operation: list, capture: 'list', expect: { status: successStatuses(list) } },
          {
            operation: get,
            params: { [param[0] as string]: id },
            expect: { status: successStatuses(get), body: { [resource.id.name]: id } },
            unlessMissing: `${list.operationId} listed no ${resource.name}: no id to read`,
          },
        ],
      }),
    ];
  });
}

function needsQuery(list: Operation): boolean {
  return list.parameters.some((p) => p.in === 'query' && p.required);
}

function describe(resource: Resource, list: Operation, get: Operation): string {
  const field = resource.id?.name ?? 'id';
  return `Given the ${field} of the first item ${list.operationId} answers, when ${get.operationId} is called with it, then the answer is ${successStatuses(get).join(' or ')} with that ${field} (skipped when the list is empty).`;
}
