import type { Operation } from '../contract/operation.js';
import { recordAt } from '../contract/resources/envelope.js';
import type { Resource } from '../contract/resources/resource.js';
import { bodyWithLocationId } from './cases/location-id.js';
import type { Exchange } from './http/exchange.js';
import { requestPath } from './http/request-path.js';

/** How many resources of one collection the run's creates were answered a success for. */
export interface CreatedCount {
  /** The collection, as people name it (`pets`). Not unique: `path` is. */
  readonly collection: string;
  /** The collection path as the contract writes it (`/store/orders`, `/authors/{authorId}/books`). */
  readonly path: string;
  readonly count: number;
  /** The contract documents a delete for them, and the run kept their ids: --cleanup can remove them. */
  readonly deletable: boolean;
  /** Why not, when not deletable: the contract documents no delete, or no answer named an id the run could read. */
  readonly kept?: 'no delete' | 'no id';
}

/** One resource the run created that the contract documents a delete for: what --cleanup removes. */
export interface Deletable {
  readonly resource: Resource;
  /** The item path's values by position: the collection path's (from the create's URL), then the record's id. */
  readonly ids: readonly string[];
}

export interface CreatedResources {
  /** Told of every answer of the run, in any order. */
  note(operationId: string, exchange: Exchange): void;
  counts(): CreatedCount[];
  deletable(): Deletable[];
}

/**
 * What the run leaves on the target: every 2xx answer to a create operation (contract/resources/) is one more
 * resource there, whatever case sent it. The ids are kept of resources with a documented delete: read from the
 * record the answer holds (within a `data`-style wrapper too), else from its Location, and a nested one's parents
 * from the create's own URL.
 */
export function createdResources(resources: readonly Resource[], byId: ReadonlyMap<string, Operation>): CreatedResources {
  const creates = new Map<string, { resource: Resource; pointer: readonly string[]; atPath: boolean }>();
  for (const resource of resources) {
    for (const op of resource.operations) {
      const operation = byId.get(op.operationId);
      const atPath = op.creates === true;
      if ((op.kind === 'create' || atPath) && operation)
        creates.set(op.operationId, { resource, pointer: op.answerRecord, atPath });
    }
  }
  const counts = new Map<Resource, number>();
  const ids = new Map<Resource, Map<string, readonly string[]>>();
  // Ids PUTs that create (rule 11) were answered a success at: a second PUT at one replaces, and makes nothing new.
  const putAt = new Set<string>();
  const keep = (resource: Resource, all: readonly string[]) => {
    const known = ids.get(resource) ?? new Map<string, readonly string[]>();
    known.set(all.join('/'), all);
    ids.set(resource, known);
  };
  return {
    note: (operationId, exchange) => {
      const create = creates.get(operationId);
      const response = exchange.response;
      if (create === undefined || response === undefined || response.status < 200 || response.status > 299) return;
      const { resource, pointer } = create;
      if (create.atPath) {
        const all = pathIds(exchange.request.url, resource.itemPath as string);
        if (all === undefined || putAt.has(`${resource.key} ${all.join('/')}`)) return;
        putAt.add(`${resource.key} ${all.join('/')}`);
        counts.set(resource, (counts.get(resource) ?? 0) + 1);
        if (resource.operations.some((op) => op.kind === 'delete')) keep(resource, all);
        return;
      }
      counts.set(resource, (counts.get(resource) ?? 0) + 1);
      const field = resource.id?.name;
      if (field === undefined || !resource.operations.some((op) => op.kind === 'delete')) return;
      const id =
        idOf(recordAt(response.json, pointer), field) ?? idOf(bodyWithLocationId(response, { field, numeric: false }), field);
      // The collection path's parameters, whether or not a resource of the contract names them (`/repos/{owner}/...`).
      const parents = pathIds(exchange.request.url, resource.collectionPath);
      if (id === undefined || parents === undefined) return;
      keep(resource, [...parents, id]);
    },
    counts: () =>
      [...counts].map(([resource, count]) => {
        const deletable = ids.has(resource);
        const kept = deletable ? undefined : resource.operations.some((op) => op.kind === 'delete') ? 'no id' : 'no delete';
        return { collection: resource.name, path: resource.collectionPath, count, deletable, ...(kept ? { kept } : {}) };
      }),
    deletable: () => [...ids].flatMap(([resource, known]) => [...known.values()].map((all) => ({ resource, ids: all }))),
  };
}

function idOf(record: unknown, field: string): string | undefined {
  if (record === null || typeof record !== 'object' || Array.isArray(record)) return undefined;
  const value = (record as Record<string, unknown>)[field];
  return typeof value === 'string' || typeof value === 'number' || typeof value === 'bigint' ? String(value) : undefined;
}

/**
 * The path parameters' values a request was sent with, read from the end of its URL by the template's segments
 * (`/v1/projects/prj_1/tasks` by `/projects/{projectId}/tasks`): a nested create's parents' ids, a PUT's whole path.
 */
function pathIds(url: string, pathTemplate: string): string[] | undefined {
  let path: string[];
  try {
    path = requestPath(url).split('/');
  } catch {
    return undefined;
  }
  const template = pathTemplate.replace(/\/+$/, '').split('/');
  const sent = path.slice(-template.length);
  if (sent.length !== template.length) return undefined;
  const values: string[] = [];
  for (const [i, segment] of template.entries()) {
    if (!/^\{[^}]+\}$/.test(segment)) continue;
    try {
      values.push(decodeURIComponent(sent[i] as string));
    } catch {
      return undefined;
    }
  }
  return values;
}
