import type { JsonValue } from '../contract/lossless-json.js';
import type { Resource } from '../contract/resources/resource.js';
import type { Exchange } from './http/exchange.js';

/** How many resources of one collection the run's creates were answered a success for. */
export interface CreatedCount {
  /** The collection, as people name it (`pets`). Not unique: `path` is. */
  readonly collection: string;
  /** The collection path as the contract writes it (`/store/orders`, `/authors/{authorId}/books`). */
  readonly path: string;
  readonly count: number;
  /** The contract documents a delete for them, and the run kept their ids: --cleanup can remove them. */
  readonly deletable: boolean;
}

/** One resource the run created that the contract documents a delete for: what --cleanup removes. */
export interface Deletable {
  readonly resource: Resource;
  readonly id: string;
}

export interface CreatedResources {
  /** Told of every answer of the run, in any order. */
  note(operationId: string, exchange: Exchange): void;
  counts(): CreatedCount[];
  deletable(): Deletable[];
}

/**
 * What the run leaves on the target: every 2xx answer to a create operation (contract/resources/) is one more
 * resource there, whatever case sent it. The ids are kept of top-level resources with a documented delete (a
 * nested one needs its parents' ids too), read from the id field of the answer.
 */
export function createdResources(resources: readonly Resource[]): CreatedResources {
  const creates = new Map<string, Resource>();
  for (const resource of resources) {
    for (const op of resource.operations) if (op.kind === 'create') creates.set(op.operationId, resource);
  }
  const counts = new Map<Resource, number>();
  const ids = new Map<Resource, Set<string>>();
  return {
    note: (operationId, exchange) => {
      const resource = creates.get(operationId);
      const status = exchange.response?.status ?? 0;
      if (resource === undefined || status < 200 || status > 299) return;
      counts.set(resource, (counts.get(resource) ?? 0) + 1);
      const id = idOf(exchange.response?.json, resource);
      if (id === undefined || resource.parent !== undefined || !resource.operations.some((op) => op.kind === 'delete')) return;
      const known = ids.get(resource) ?? new Set<string>();
      known.add(id);
      ids.set(resource, known);
    },
    counts: () =>
      [...counts].map(([resource, count]) => ({
        collection: resource.name,
        path: resource.collectionPath,
        count,
        deletable: ids.has(resource),
      })),
    deletable: () => [...ids].flatMap(([resource, set]) => [...set].map((id) => ({ resource, id }))),
  };
}

function idOf(body: JsonValue | undefined, resource: Resource): string | undefined {
  const field = resource.id?.name;
  if (field === undefined || body === null || typeof body !== 'object' || Array.isArray(body)) return undefined;
  const value = (body as Record<string, JsonValue>)[field];
  return typeof value === 'string' || typeof value === 'number' || typeof value === 'bigint' ? String(value) : undefined;
}
