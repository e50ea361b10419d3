import { findResponse } from '../contract/find-response.js';
import type { Operation } from '../contract/operation.js';
import { sampleValue } from '../contract/sample-value.js';
import type { MockResponse } from './handler.js';

/**
 * The answer with a body its documented response's schema takes: Prism's when it is valid, else a valid sample of
 * the schema (Prism writes "string" for a string with a pattern, such as `closingTime: ^[0-2][0-9]:[0-5][0-9]$`),
 * else Prism's as it is. A body that is not JSON is left to its media type.
 */
export function withValidBody(operation: Operation, answer: MockResponse): MockResponse {
  const media = findResponse(operation, answer.status)?.contents.find((c) => c.mediaType.endsWith('json'));
  if (!media?.validate || !media.schema || answer.body === '') return answer;
  let body: unknown;
  try {
    body = JSON.parse(answer.body);
  } catch {
    return answer;
  }
  if (media.validate(body).length === 0) return answer;
  const sample = sampleValue(media.schema);
  return media.validate(sample).length === 0 ? { ...answer, body: JSON.stringify(sample) } : answer;
}
