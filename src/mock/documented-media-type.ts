import { findResponse, isJsonMedia } from '../contract/find-response.js';
import type { Operation, ResponseSpec } from '../contract/operation.js';
import type { MockResponse } from './handler.js';

const types = new WeakMap<ResponseSpec, string | null>();

/**
 * A store's answer labelled with the JSON type its documented response names, where that is not plain
 * `application/json` (which the connection writes for every body): HAL's `application/hal+json`, JSON:API's
 * `application/vnd.api+json`. An answer without a body, or that names its type already, is returned as it is.
 */
export function inDocumentedType(operation: Operation, answer: MockResponse): MockResponse {
  if (answer.status === 204 || (answer.body === '' && !answer.chunks)) return answer;
  const response = findResponse(operation, answer.status);
  const type = response === undefined ? null : typeOf(response);
  if (type === null) return answer;
  if (Object.keys(answer.headers ?? {}).some((name) => name.toLowerCase() === 'content-type')) return answer;
  return { ...answer, headers: { ...answer.headers, 'Content-Type': type } };
}

function typeOf(response: ResponseSpec): string | null {
  let type = types.get(response);
  if (type === undefined) {
    const json = response.contents.map((c) => c.mediaType).filter((mediaType) => isJsonMedia(mediaType));
    type = json.length === 0 || json.includes('application/json') ? null : (json[0] as string);
    types.set(response, type);
  }
  return type;
}
