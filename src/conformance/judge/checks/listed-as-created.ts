import type { Resource } from '../../../contract/resources/resource.js';
import { answeredRecord, lastingFields, listedRecords } from '../../../contract/resources/resource-roles.js';
import { containsSubset, subsetMismatch } from '../subset-mismatch.js';
import type { Operation } from '../../../contract/operation.js';
import type { Check, Problem } from './check.js';

export const listedAsCreated: Check = {
  id: 'listed-as-created',
  severity: 'high',
  clause:
    'List animals: the list holds Pet values, so a pet this run created is listed with the fields its create answered (its status aside: transitions are not shown)',
  observed: 'documented',
  check: ({ operation, exchange, run }) => {
    const response = exchange.response;
    const body = response?.json;
    if (!response || response.status < 200 || response.status > 299) return undefined;
    const resource = run.roles.get(operation.operationId)?.resource;
    if (!resource) return undefined;
    const listedFrom = run.listedFrom.get(operation.operationId);
    const records = listedFrom === undefined ? undefined : listedRecords(resource, body);
    if (listedFrom !== undefined && records) return compare(resource, records, listedFrom, run.createdFields.get(listedFrom));
    if (run.listedCreates.has(operation.operationId)) {
      const record = answeredRecord(run.roles.get(operation.operationId), operation.operationId, body);
      remember(resource, operation, record, run.createdFields);
    }
    return undefined;
  },
};

// The fields a create answered, without those whose schema is an enum (a status may move on: transitions are
// not shown), by create and id.
function remember(resource: Resource, operation: Operation, body: unknown, created: Map<string, Map<string, object>>): void {
  if (body === null || typeof body !== 'object' || Array.isArray(body)) return;
  const id = (body as Record<string, unknown>)[resource.id?.name as string];
  if (id === undefined) return;
  const fixed = lastingFields(resource, body);
  const byId = created.get(operation.operationId) ?? new Map<string, object>();
  byId.set(String(id), fixed);
  created.set(operation.operationId, byId);
}

function compare(
  resource: Resource,
  list: readonly unknown[],
  createId: string,
  created: ReadonlyMap<string, object> | undefined,
): Problem | undefined {
  if (!created) return undefined;
  const idName = resource.id?.name as string;
  for (let i = 0; i < list.length; i++) {
    const item = list[i];
    if (item === null || typeof item !== 'object' || Array.isArray(item)) continue;
    const id = (item as Record<string, unknown>)[idName];
    const fields = id === undefined ? undefined : created.get(String(id));
    if (!fields || containsSubset(item, fields)) continue;
    const mismatch = subsetMismatch(item, fields, `body${resource.listPointer.map((name) => `.${name}`).join('')}[${i}]`);
    if (mismatch) {
      return {
        title: `a pet this run created is listed with other values: ${mismatch}`,
        received: mismatch,
        documented: `the fields ${createId} answered for it`,
      };
    }
  }
  return undefined;
}
