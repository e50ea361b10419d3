import type { Contract } from '../../../contract/load-contract.js';
import type { Operation } from '../../../contract/operation.js';
import { inferResources } from '../../../contract/resources/infer-resources.js';
import type { Resource } from '../../../contract/resources/resource.js';

/** A resource whose item read can take an id from a read of its collection, without creating anything. */
export interface ListedId {
  readonly resource: Resource;
  readonly list: Operation;
  readonly get: Operation;
  /** The id field of an item. */
  readonly field: string;
  /** The item read's one path parameter. */
  readonly param: string;
  /** The first listed item's id, as a template over the list's answer captured as `list`. */
  readonly value: string;
}

/**
 * The resources whose item read can be sent with an id a list answers: top-level ones only (a nested one needs its
 * parents' ids as well), whose list needs no query parameter the run would have to choose.
 */
export function listedIds(contract: Contract): ListedId[] {
  const byId = new Map(contract.operations.map((op) => [op.operationId, op]));
  return inferResources(contract).resources.flatMap((resource): ListedId[] => {
    const role = (name: string) => resource.operations.find((op) => op.kind === name);
    const [list, get] = [role('list'), role('get')].map((op) => (op === undefined ? undefined : byId.get(op.operationId)));
    const param = role('get')?.pathParameters;
    if (!list || !get || !resource.id || resource.parent !== undefined || param?.length !== 1 || needsQuery(list)) return [];
    const value = `{{list.body.${[...resource.listPointer, '0', resource.id.name].join('.')}}}`;
    return [{ resource, list, get, field: resource.id.name, param: param[0] as string, value }];
  });
}

function needsQuery(list: Operation): boolean {
  return list.parameters.some((p) => p.in === 'query' && p.required);
}
