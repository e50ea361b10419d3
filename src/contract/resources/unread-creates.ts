import { findIdField } from './find-id-field.js';
import { type ContractView, inferResources } from './infer-resources.js';
import { objectShape } from './object-shape.js';
import type { Resource } from './resource.js';
import { readResourceIdExtension } from './resource-id-extension.js';
import { hasRole } from './resource-roles.js';

/** A create whose records nothing reads back: the resource stays stateless, its create is still answered. */
export interface UnreadCreate {
  readonly operationId: string;
  readonly resource: Resource;
  /** The field that names a record in the create's answer, by the id rules a stateful resource would use. */
  readonly idField: string | undefined;
}

/**
 * The creates (POST on a collection) of every resource left stateless only because it has no get and no list:
 * its representation is a JSON object, so an answer can be made for it, but no record needs keeping
 * (docs/reference/resources.md, "Creates nothing reads back").
 */
export function unreadCreates(contract: ContractView): UnreadCreate[] {
  const found: UnreadCreate[] = [];
  for (const resource of inferResources(contract).resources) {
    const shape = objectShape(resource.schema);
    const create = resource.operations.find((op) => op.kind === 'create');
    if (resource.stateless === undefined || !shape || !create || hasRole(resource, 'get') || hasRole(resource, 'list')) continue;
    const operation = contract.operations.find((op) => op.operationId === create.operationId);
    const extension = readResourceIdExtension([
      { where: `${create.method} ${create.path}`, holder: operation?.extensions },
      { where: `path ${resource.collectionPath}`, holder: pathItem(contract, resource.collectionPath) },
      { where: 'the representation schema', holder: resource.schema },
    ]);
    const answer = findIdField({ shape, name: resource.name, parameter: undefined, extension, linked: undefined });
    found.push({ operationId: create.operationId, resource, idField: 'id' in answer ? answer.id.name : undefined });
  }
  return found;
}

function pathItem(contract: ContractView, path: string): object | undefined {
  return (contract.document as { paths?: Record<string, object> }).paths?.[path];
}
