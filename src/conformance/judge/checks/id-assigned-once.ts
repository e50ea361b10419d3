import { answeredRecord } from '../../../contract/resources/resource-roles.js';
import type { Check } from './check.js';

export const idAssignedOnce: Check = {
  id: 'id-assigned-once',
  severity: 'high',
  clause: 'Resources: Pet.id is the unique identifier assigned by the service on creation, so two creates never get one id',
  observed: 'applies',
  check: ({ operation, exchange, caseId, run }) => {
    const response = exchange.response;
    const body = answeredRecord(run.roles.get(operation.operationId), operation.operationId, response?.json);
    const field = run.identifyingCreates.get(operation.operationId);
    if (!response || response.status < 200 || response.status > 299 || field === undefined) return undefined;
    if (body === null || typeof body !== 'object' || Array.isArray(body)) return undefined;
    const id = (body as Record<string, unknown>)[field];
    if (typeof id !== 'number' && typeof id !== 'bigint' && typeof id !== 'string') return undefined;
    // A nested record is addressed by its parents' values and its id: another parent may hold the same id (issues
    // numbered per repository), so the ids are counted per collection URL.
    const key = `${operation.operationId} ${collectionOf(exchange.request.url)} ${String(id)}`;
    const first = run.assignedIds.get(key);
    if (first === undefined) {
      run.assignedIds.set(key, caseId);
      return undefined;
    }
    return {
      title: `${operation.operationId} assigned id ${String(id)} again`,
      received: `id ${String(id)}, already returned by a create in case ${first} to the same collection`,
      documented: 'a new, unique id for every created resource',
    };
  },
};

// The path of a URL the run built itself (scheme, authority, path, query): no URL object per create.
function collectionOf(url: string): string {
  const path = url.replace(ORIGIN, '');
  let end = path.search(QUERY_START);
  if (end === -1) end = path.length;
  while (end > 0 && path.charCodeAt(end - 1) === SLASH) end--;
  return path.slice(0, end);
}

const ORIGIN = /^[A-Za-z][A-Za-z0-9+.-]*:\/\/[^/?#]*/;
const QUERY_START = /[?#]/;
const SLASH = 47;
