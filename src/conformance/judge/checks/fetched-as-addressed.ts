import { parseIntegerText } from '../../../contract/lossless-json.js';
import { answeredRecord } from '../../../contract/resources/resource-roles.js';
import type { Check } from './check.js';

/**
 * A fetch (GET /pets/{petId}) that answers a resource answers the one its path names: a server that reads a large
 * id as a smaller one (a 32-bit or double conversion) answers another pet, with a valid body and a 200. A path value
 * that is no integer (`1.5`) names no record whose id is one, so a 2xx with such a record read the value by its
 * digits before the point (parseInt): which answer it should get is silent, but not that one.
 */
export const fetchedAsAddressed: Check = {
  id: 'fetched-as-addressed',
  severity: 'high',
  clause: 'Get an animal: 200 answers the Pet whose id the path names (404: the requested animal does not exist)',
  observed: 'applies',
  check: ({ operation, exchange, run }) => {
    const response = exchange.response;
    const field = run.fetchedBy.get(operation.operationId);
    if (!response || response.status < 200 || response.status > 299 || field === undefined) return undefined;
    const body = answeredRecord(run.roles.get(operation.operationId), operation.operationId, response.json);
    if (body === null || typeof body !== 'object' || Array.isArray(body)) return undefined;
    const id = (body as Record<string, unknown>)[field];
    // The record's own id is the item path's last parameter (docs/resources.md, rule 1).
    const segment = lastSegment(exchange.request.url) ?? '';
    // An id that is no integer is body-schema's to judge, or a resource's own string id (an ISBN).
    if (typeof id !== 'number' && typeof id !== 'bigint') return undefined;
    const asked = parseIntegerText(segment) ?? segment;
    if (String(asked) === String(id)) return undefined;
    // Another spelling of the same integer (`1.0`, `+1`) may be read as it.
    if (typeof asked === 'string' && asked.trim() !== '' && Number(asked) === Number(id)) return undefined;
    return {
      title: `${operation.operationId} answered id ${String(id)} when asked for ${String(asked)}`,
      received: `id ${String(id)}`,
      documented: `the resource whose ${field} is ${String(asked)}, or 404`,
    };
  },
};

// An item path may end in a slash (`/snippets/{id}/`, docs/resources.md rule 1): the id is the segment before it.
function lastSegment(url: string): string | undefined {
  const path = url.replace(/[?#].*$/s, '').replace(/(.)\/$/s, '$1');
  try {
    return decodeURIComponent(path.slice(path.lastIndexOf('/') + 1));
  } catch {
    return undefined;
  }
}
