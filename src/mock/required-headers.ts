import { randomUUID } from 'node:crypto';
import { findResponse } from '../contract/find-response.js';
import type { JsonSchema, Operation, ResponseSpec } from '../contract/operation.js';
import { sampleValue } from '../contract/sample-value.js';
import { entityTag } from './conditional/entity-tag.js';
import type { MockResponse } from './handler.js';

type HeaderValue = (answer: MockResponse) => string;

// Written by the connection for every answer (send-answer.ts): never made here.
const SENT_ANYWAY = new Set(['content-type', 'content-length', 'transfer-encoding', 'date', 'connection', 'keep-alive']);

const plans = new WeakMap<ResponseSpec, readonly (readonly [string, HeaderValue])[]>();

/**
 * The answer with every header its documented response requires (`required: true`) that it does not carry yet
 * (docs/reference/resources.md, Answers), and an ETag wherever one is documented, since the mock keeps the
 * conditional requests it makes possible (src/mock/conditional/): an ETag is the record's tag (entity-tag.ts), else
 * a quoted hash of the body, so it changes when the record does;
 * any other is the contract's example, else a valid sample of its schema. An answer whose response requires none
 * (every Pet Store answer) is returned as it is.
 */
export function withRequiredHeaders(operation: Operation, answer: MockResponse): MockResponse {
  const response = findResponse(operation, answer.status);
  const plan = response === undefined ? undefined : planOf(response);
  if (plan === undefined || plan.length === 0) return answer;
  const own = new Set(Object.keys(answer.headers ?? {}).map((name) => name.toLowerCase()));
  const headers: Record<string, string> = { ...answer.headers };
  for (const [name, value] of plan) if (!own.has(name)) headers[name] = value(answer);
  return { ...answer, headers };
}

function planOf(response: ResponseSpec): readonly (readonly [string, HeaderValue])[] {
  let plan = plans.get(response);
  if (plan === undefined) {
    plan = response.headers
      .filter((header) => (header.required || header.name === 'etag') && !SENT_ANYWAY.has(header.name))
      .map((header) => [header.name, headerValue(header.name, header.schema, header.example)] as const);
    plans.set(response, plan);
  }
  return plan;
}

function headerValue(name: string, schema: JsonSchema | undefined, example: unknown): HeaderValue {
  if (name === 'etag') return etag;
  if (example === undefined && schema?.format === 'uuid' && schema.example === undefined) return () => randomUUID();
  const text = String(example ?? sampleValue(schema));
  return () => text;
}

// RFC 9110 §8.8.3: an opaque quoted string; an answer that represents a stored record carries the record's own tag.
// A list streamed in chunks is never one whole text to hash: its tag is one no other answer has (weak, §8.8.1), never
// one shared by every large list whatever it holds.
function etag(answer: MockResponse): string {
  if (answer.record !== undefined) return entityTag(answer.record);
  if (answer.chunks !== undefined) return `W/"${randomUUID()}"`;
  return entityTag(answer.body);
}
