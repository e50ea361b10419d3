import { findMedia, findResponse, isJsonMedia, mediaTypeOf } from '../find-response.js';
import type { Operation } from '../operation.js';
import type { Problem } from './problem.js';
import type { ReceivedResponse } from './received-response.js';

const JSON_MEDIA = 'application/json';

/** An answer whose Content-Type is not a media type its response documents (JSON, where it documents none). */
export function judgeContentTypeJson(operation: Operation, response: ReceivedResponse): Problem | undefined {
  const declared = findResponse(operation, response.status)?.contents ?? [];
  if (response.text === '' && declared.length === 0) return undefined;
  const received = mediaTypeOf(response.headers['content-type']);
  const ok = declared.length > 0 ? findMedia(declared, received) !== undefined : isJsonMedia(received);
  if (ok) return undefined;
  const allowed = declared.length > 0 ? declared.map((c) => c.mediaType) : [JSON_MEDIA];
  return {
    title: `Content-Type is ${received ?? 'missing'}`,
    received: `Content-Type: ${response.headers['content-type'] ?? '(none)'}`,
    documented: `Content-Type: ${allowed.join(' or ')}`,
  };
}
