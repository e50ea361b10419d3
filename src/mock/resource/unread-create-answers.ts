import type { Validator } from '../../contract/compile-schema.js';
import { findResponse, isJsonMedia } from '../../contract/find-response.js';
import type { Contract } from '../../contract/load-contract.js';
import { stringifyJson } from '../../contract/lossless-json.js';
import type { JsonSchema, Operation, ResponseSpec } from '../../contract/operation.js';
import { objectShape } from '../../contract/resources/object-shape.js';
import { recordIn, requestBodySchema } from '../../contract/resources/representation.js';
import { unreadCreates } from '../../contract/resources/unread-creates.js';
import { sampleValue } from '../../contract/sample-value.js';
import { setOwn } from '../../contract/set-own.js';
import type { RequestInput } from '../connection/read-request.js';
import type { MockResponse } from '../handler.js';
import { type FreshValue, freshIds, isTimestamp, timestampLike } from './fresh-values.js';

/** How the mock answers one create whose records nothing reads back: worked out once, when the contract is adopted. */
export interface UnreadCreateAnswer {
  /** The status it answers unless Prefer asks for another success. */
  readonly status: number;
  /** The answer for `status`, a documented success; undefined when the contract documents none for it. */
  answer(input: RequestInput, status: number): MockResponse | undefined;
}

/**
 * Every create the resource model leaves stateless because nothing reads its records back (unreadCreates), by
 * operationId. Such a create keeps nothing, yet its client needs to see what it sent accepted: the answer is the
 * contract's example of the success (its schema's sample without one), with the request's fields that the
 * answer also has, a fresh id, and the time stamps the request did not send set to now. It always validates
 * against the documented schema: a part that would break it is left as the example has it.
 */
export function unreadCreateAnswers(contract: Contract): Map<string, UnreadCreateAnswer> {
  const answers = new Map<string, UnreadCreateAnswer>();
  for (const { operationId, idField } of unreadCreates(contract)) {
    const operation = contract.byId.get(operationId);
    const status = operation && acceptedStatus(operation);
    if (operation === undefined || status === undefined) continue;
    const plans = new Map<ResponseSpec, AnswerPlan>();
    const sendable = offered(operation);
    for (const response of operation.responses) {
      if (response.code.startsWith('2')) plans.set(response, planOf(response, idField, sendable));
    }
    answers.set(operationId, {
      status,
      answer: (input, asked) => {
        const response = findResponse(operation, asked);
        const plan = response && plans.get(response);
        return plan && { status: asked, body: plan.body(input.body) };
      },
    });
  }
  return answers;
}

/**
 * The success status of a create nothing reads back: it is accepted, not stored, so 202 (RFC 9110 §15.3.3) where
 * the contract allows it: listed, or within a `2XX` range when no success is listed one by one. Otherwise the
 * lowest listed success, as is (a lone documented 201 is always the answer). Undefined when none is documented.
 */
export function acceptedStatus(operation: Operation): number | undefined {
  const listed = operation.responses.map((r) => r.code).filter((code) => /^2\d\d$/.test(code));
  if (listed.length > 0) return listed.includes('202') ? 202 : Math.min(...listed.map(Number));
  return operation.responses.some((r) => r.code === '2XX') ? 202 : undefined;
}

interface AnswerPlan {
  /** The answer's text for a request body. */
  readonly body: (sent: unknown) => string;
}

interface RecordPlan {
  readonly template: unknown;
  readonly validate: Validator;
  /** Where the record sits in the answer (`['data']` for `{data: {...}}`). */
  readonly pointer: readonly string[];
  /** The record's fields that the request's fields of the same name fill. */
  readonly echoed: ReadonlySet<string>;
  /** Fields made anew for each answer: the id, the time stamps the request did not send. */
  readonly fresh: readonly (readonly [string, FreshValue])[];
}

const NO_BODY: AnswerPlan = { body: () => '' };

function planOf(response: ResponseSpec, idField: string | undefined, sendable: ReadonlySet<string>): AnswerPlan {
  const media = response.contents.find((c) => isJsonMedia(c.mediaType) && c.schema !== undefined && c.validate !== undefined);
  if (!media?.schema || !media.validate) return NO_BODY;
  const validate = media.validate;
  const example = media.example !== undefined && validate(media.example).length === 0 ? media.example : undefined;
  const template = example ?? sampleValue(media.schema);
  const found = recordIn(media.schema);
  const pointer = found?.pointer ?? [];
  const properties = (found?.schema as JsonSchema | undefined)?.properties ?? {};
  const base: RecordPlan = { template, validate, pointer, echoed: new Set(), fresh: [] };
  const record = recordAt(structuredClone(template), pointer);
  const fresh: [string, FreshValue][] = [];
  // The id first: a sample made from the schema has no valid one (a uuid), and each later field is tried with it.
  const names = Object.keys(properties).sort((a, b) => Number(b === idField) - Number(a === idField));
  for (const name of names) {
    const shown = record?.[name];
    const schema = properties[name];
    const makers = name === idField ? freshIds(schema, shown) : isTimestamp(schema, shown) ? [timestampLike(shown)] : [];
    // Tried once here, so that each answer makes only values the schema takes.
    const maker = makers.find((make) => build(base, undefined, [...fresh, [name, make]]) !== undefined);
    if (maker) fresh.push([name, maker]);
  }
  // As a stateful create stores them (fill-server-fields.ts): a field the server sets (the id, a readOnly one) or
  // one the request schema does not offer is never taken from the request, so `status: "delivered"` is not echoed.
  const echoed = Object.keys(properties).filter(
    (name) => name !== idField && sendable.has(name) && (properties[name] as { readOnly?: boolean }).readOnly !== true,
  );
  const plan: RecordPlan = { ...base, echoed: new Set(echoed), fresh };
  const text = stringifyJson(template);
  return { body: (sent) => build(plan, sent, plan.fresh) ?? build(plan, undefined, plan.fresh) ?? text };
}

// The answer's text, or undefined when it would not validate.
function build(plan: RecordPlan, sent: unknown, fresh: readonly (readonly [string, FreshValue])[]): string | undefined {
  const body = structuredClone(plan.template);
  const record = recordAt(body, plan.pointer);
  if (record === undefined) return undefined;
  const given = sent !== null && typeof sent === 'object' && !Array.isArray(sent) ? (sent as Record<string, unknown>) : {};
  for (const name of Object.keys(given)) if (plan.echoed.has(name)) setOwn(record, name, given[name]);
  for (const [name, make] of fresh) if (!Object.hasOwn(given, name) || !plan.echoed.has(name)) setOwn(record, name, make());
  return plan.validate(body).length === 0 ? stringifyJson(body) : undefined;
}

function recordAt(body: unknown, pointer: readonly string[]): Record<string, unknown> | undefined {
  let at = body;
  for (const name of pointer) at = (at as Record<string, unknown> | undefined)?.[name];
  return at !== null && typeof at === 'object' && !Array.isArray(at) ? (at as Record<string, unknown>) : undefined;
}

// The fields a request may send: the properties of its JSON body's schema.
function offered(operation: Operation): ReadonlySet<string> {
  return new Set(Object.keys(objectShape(requestBodySchema(operation))?.properties ?? {}));
}
