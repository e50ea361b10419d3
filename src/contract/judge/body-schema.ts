import { describeIssues } from '../compile-schema.js';
import { findMedia, findResponse, isJsonMedia, mediaTypeOf } from '../find-response.js';
import type { Operation } from '../operation.js';
import type { Problem } from './problem.js';
import type { ReceivedResponse } from './received-response.js';

/** A body that is missing, not JSON, or does not match the schema of the documented response. */
export function judgeBodySchema(operation: Operation, response: ReceivedResponse): Problem | undefined {
  const documented = findResponse(operation, response.status);
  if (!documented || documented.contents.length === 0) return undefined;
  // A wrong Content-Type is content-type-json's finding; the body is still held to the documented schema.
  const media = findMedia(documented.contents, mediaTypeOf(response.headers['content-type'])) ?? documented.contents[0];
  if (!media?.validate) return undefined;
  // A body documented in a media type that is not JSON (a text/csv download, a PDF) is not parsed as JSON: its
  // schema (`type: string`, `format: binary`) describes text or bytes the runner does not decode further.
  if (!isJsonMedia(media.mediaType)) return undefined;
  const schemaOf = `the ${documented.code} response of ${operation.operationId}`;
  if (response.text === '') return { title: 'empty body', received: '(no body)', documented: `a JSON body, ${schemaOf}` };
  if (response.jsonError !== undefined) {
    return {
      title: 'body is not JSON',
      received: `${response.text.slice(0, 200)} (${response.jsonError})`,
      documented: schemaOf,
    };
  }
  const issues = media.validate(response.json, 'body');
  if (issues.length === 0) return undefined;
  return {
    title: `body does not match ${schemaOf}`,
    received: describeIssues(issues),
    documented: schemaOf,
  };
}
