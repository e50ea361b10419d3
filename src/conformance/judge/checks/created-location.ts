import { answeredRecord } from '../../../contract/resources/resource-roles.js';
import type { Check } from './check.js';
import { requestPath } from '../../http/request-path.js';

/**
 * RFC 9110 §15.3.2 and §10.2.2: the Location of a 201 (Created) refers to the resource the request created. Where the
 * contract addresses what a POST creates as `{collection}/{id}` (RunMemory.identifyingCreates: POST /pets and GET
 * /pets/{petId}), a Location naming another id or another path sends a client to a resource it did not make. Judged
 * only when such a 201 sends a Location (the contract need not document one). A Location on another host is held to
 * the collection's last segment and the id: a gateway may publish the API under another prefix.
 */
export const createdLocation: Check = {
  id: 'created-location',
  severity: 'medium',
  clause: 'RFC 9110 §15.3.2: the Location of a 201 (Created) names the resource the request created',
  observed: 'applies',
  check: ({ operation, exchange, run }) => {
    const response = exchange.response;
    const location = response?.headers.location;
    const idField = run.identifyingCreates.get(operation.operationId);
    if (response?.status !== 201 || location === undefined || idField === undefined) return undefined;
    const record = answeredRecord(run.roles.get(operation.operationId), operation.operationId, response.json);
    const id = (record as Record<string, unknown> | undefined)?.[idField];
    if (id === undefined || id === null || typeof id === 'object') return undefined;
    const collection = requestPath(exchange.request.url);
    const expected = `${collection}/${encodeURIComponent(String(id))}`;
    // What a server usually sends, the path itself: the URL it resolves to is that path on the same origin, unless
    // the id is a dot segment (`..` resolves to the parent) or empty.
    if (location === expected && !DOT_SEGMENT.test(String(id))) return undefined;
    const found = {
      title: `the 201's Location names another resource: ${location}`,
      received: `Location: ${location}`,
      documented: `Location: ${expected}`,
    };
    const sent = new URL(exchange.request.url);
    let named: URL;
    try {
      named = new URL(location, sent);
    } catch {
      return found;
    }
    // A trailing slash is the same resource to any server that routes /pets/42/ as /pets/42.
    const segments = named.pathname.replace(/(.)\/$/, '$1').split('/');
    const last = decoded(segments.pop() as string);
    const parent = segments.join('/');
    const underCollection =
      named.origin === sent.origin ? parent === collection : parent.endsWith(`/${collection.split('/').pop()}`);
    return underCollection && last === String(id) ? undefined : found;
  },
};

const DOT_SEGMENT = /^\.{0,2}$/;

function decoded(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}
