import type { Operation } from '../operation.js';
import { objectShape, type RawSchema } from './object-shape.js';
import { eraseParameters, readPath } from './read-path.js';
import { answerSchema, listedIn, requestBodySchema } from './representation.js';
import type { Resource, ResourceModel, Singleton, SingletonOperation } from './resource.js';

// RFC 7396 §4 registers application/merge-patch+json; plain JSON is read as a merge too, as for an item's PATCH.
const MERGE_MEDIA = new Set(['application/merge-patch+json', 'application/json']);

// A POST makes a path a collection, a DELETE asks for a "gone" state: either keeps the path off the rule.
const NOT_ON_A_SINGLETON = new Set(['POST', 'DELETE']);

/** The model with its single records found (rule 12), once its resources are known. */
export function withSingletons(operations: readonly Operation[], model: ResourceModel): ResourceModel {
  return { ...model, singletons: findSingletons(operations, model.resources) };
}

/**
 * The single records of a contract (docs/reference/resources.md rule 12): a path whose last segment is fixed, whose
 * GET answers one JSON object (not an array, not a list page), and which takes a PUT and/or a JSON PATCH of an
 * object, with no POST or DELETE; at the top (`/settings`) or right under an item of a stateful resource
 * (`/projects/{projectId}/settings`, one record per parent). A path that is a stateful resource's is not one.
 */
export function findSingletons(operations: readonly Operation[], resources: readonly Resource[]): Singleton[] {
  const byPath = new Map<string, Operation[]>();
  for (const operation of operations) byPath.set(operation.path, [...(byPath.get(operation.path) ?? []), operation]);
  const stateful = resources.filter((r) => r.stateless === undefined && r.id !== undefined);
  const found: Singleton[] = [];
  for (const [path, onPath] of byPath) {
    const singleton = singletonAt(path, onPath, stateful);
    if (singleton && !found.some((s) => s.key === singleton.key)) found.push(singleton);
  }
  return found;
}

function singletonAt(path: string, onPath: readonly Operation[], stateful: readonly Resource[]): Singleton | undefined {
  const place = readPath(path);
  if (place.kind !== 'collection' || stateful.some((r) => r.key === place.key)) return undefined;
  if (onPath.some((o) => NOT_ON_A_SINGLETON.has(o.method))) return undefined;
  const get = onPath.find((o) => o.method === 'GET');
  const schema = get && answerSchema(get);
  if (!get || !objectShape(schema) || listedIn(schema) !== undefined) return undefined;
  const replace = onPath.find((o) => o.method === 'PUT' && objectShape(requestBodySchema(o)) !== undefined);
  const patch = onPath.find((o) => o.method === 'PATCH' && takesMerge(o));
  if (!replace && !patch) return undefined;
  const parent = parentOf(path, stateful);
  if (parent === null) return undefined;
  const operations: SingletonOperation[] = [
    { kind: 'get', operationId: get.operationId, method: get.method },
    ...(replace ? [{ kind: 'replace' as const, operationId: replace.operationId, method: replace.method }] : []),
    ...(patch ? [{ kind: 'merge-patch' as const, operationId: patch.operationId, method: patch.method }] : []),
  ];
  return { key: place.key, path, parent: parent?.key, schema: schema as Singleton['schema'], operations };
}

function takesMerge(operation: Operation): boolean {
  return (
    operation.requestBody?.contents.some(
      (c) => MERGE_MEDIA.has(c.mediaType) && objectShape(c.schema as RawSchema | undefined) !== undefined,
    ) ?? false
  );
}

/**
 * The stateful resource whose item the path hangs under (`/projects/{}` of `/projects/{}/settings`), undefined at
 * the top (no parameter), null when the path has parameters but is no item's own record: whose it is is unknown.
 */
function parentOf(path: string, stateful: readonly Resource[]): Resource | undefined | null {
  if (!path.includes('{')) return undefined;
  const itemPath = path.slice(0, path.lastIndexOf('/'));
  const place = readPath(itemPath);
  if (place.kind !== 'item') return null;
  return (
    stateful.find(
      (r) => r.key === place.key && r.itemPath !== undefined && eraseParameters(r.itemPath) === eraseParameters(itemPath),
    ) ?? null
  );
}
