import { notModifiedPromise } from '../../contract/conditional/conditional-requests.js';
import type { Operation } from '../../contract/operation.js';
import type { MockResponse } from '../handler.js';
import { namesTag } from './entity-tag.js';

/**
 * The 304 for a read whose If-None-Match names the tag of its answer (RFC 9110 §13.1.2, weak comparison), with
 * that ETag and no content (§15.4.5); the answer itself otherwise. Only where the contract documents the 304: HTTP
 * lets a server answer 200 instead, and a 304 the contract does not list is a status its clients were never told
 * of (docs/reference/resources.md, Conditional requests).
 */
export function notModified(operation: Operation, ifNoneMatch: string | undefined, answer: MockResponse): MockResponse {
  if (ifNoneMatch === undefined || answer.status < 200 || answer.status > 299) return answer;
  const tag = answer.headers?.etag;
  if (tag === undefined || !notModifiedPromise(operation)?.documented || !namesTag(ifNoneMatch, tag, true)) return answer;
  return { status: 304, body: '', headers: { etag: tag } };
}
