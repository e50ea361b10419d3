import { answeredRecord } from '../../../contract/resources/resource-roles.js';
import type { Check } from './check.js';
import { requestPath } from '../../http/request-path.js';

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
    const key = `${operation.operationId} ${requestPath(exchange.request.url)} ${String(id)}`;
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
