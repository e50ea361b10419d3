import { findResponse, isJsonMedia, mediaTypeOf } from '../find-response.js';
import type { Operation } from '../operation.js';
import type { Problem } from './problem.js';
import type { ReceivedResponse } from './received-response.js';

/** A JSON answer whose bytes are not UTF-8. */
export function judgeJsonUtf8(operation: Operation, response: ReceivedResponse): Problem | undefined {
  if (!response.invalidUtf8) return undefined;
  // An answer that is not meant to be JSON (an HTML error page) is content-type-json's to judge, not this one.
  const declared = findResponse(operation, response.status)?.contents.some((c) => isJsonMedia(c.mediaType)) ?? false;
  if (!declared && !isJsonMedia(mediaTypeOf(response.headers['content-type']))) return undefined;
  return {
    title: 'the body is not valid UTF-8',
    received: 'bytes that are not UTF-8 (shown as U+FFFD in this report)',
    documented: 'a JSON text in UTF-8',
  };
}
