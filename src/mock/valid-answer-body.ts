import { findResponse } from '../contract/find-response.js';
import type { JsonSchema, Operation } from '../contract/operation.js';
import { sampleValue } from '../contract/sample-value.js';
import { eachWriteOnly, hasWriteOnly } from '../contract/write-only-fields.js';
import type { MockResponse } from './handler.js';

/**
 * The answer with a body its documented response's schema takes: Prism's when it is valid, else a valid sample of
 * the schema (Prism writes "string" for a string with a pattern, such as `closingTime: ^[0-2][0-9]:[0-5][0-9]$`),
 * else Prism's as it is. A body that is not JSON is left to its media type. Either way without the properties the
 * contract marks writeOnly: Prism makes them from the schema (a password), and a response SHOULD NOT carry them.
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
  const shown =
    hasWriteOnly(media.schema) && withoutWriteOnly(body, media.schema) ? { ...answer, body: JSON.stringify(body) } : answer;
  if (media.validate(body).length === 0) return shown;
  const sample = sampleValue(media.schema);
  return media.validate(sample).length === 0 ? { ...answer, body: JSON.stringify(sample) } : shown;
}

// Whether any was taken out of `body`, which is changed in place.
function withoutWriteOnly(body: unknown, schema: JsonSchema): boolean {
  let removed = false;
  eachWriteOnly(body, schema, 'body', (record, name) => {
    delete record[name];
    removed = true;
    return true;
  });
  return removed;
}
