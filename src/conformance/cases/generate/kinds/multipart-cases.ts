import type { JsonSchema, Operation } from '../../../../contract/operation.js';
import { objectShape } from '../../../../contract/resources/object-shape.js';
import type { Scenario } from '../../scenario.js';
import { invalidInputStatuses, successStatuses } from '../expected-statuses.js';
import { makeCase } from '../make-case.js';
import { MULTIPART_BOUNDARY, multipartText } from '../multipart-text.js';
import { sampleValue } from '../sample-value.js';

const MULTIPART = 'multipart/form-data';
const CONTENT_TYPE = `${MULTIPART}; boundary=${MULTIPART_BOUNDARY}`;

/** A valid sample of the operation's multipart body, as text and as the object, when the runner can write one. */
export function multipartOf(operation: Operation): { readonly schema: JsonSchema; readonly sample: object } | undefined {
  const schema = operation.requestBody?.contents.find((c) => c.mediaType === MULTIPART)?.schema as JsonSchema | undefined;
  if (schema === undefined) return undefined;
  const sample = sampleValue(schema);
  return multipartText(sample, schema) === undefined ? undefined : { schema, sample: sample as object };
}

/**
 * A documented multipart/form-data body (RFC 7578): a valid sample, files and all, is accepted; the same body
 * without a field the schema requires is refused as the operation documents (recorded where it documents no
 * refusal).
 */
export function multipartCases(operation: Operation): Scenario[] {
  const made = multipartOf(operation);
  if (made === undefined) return [];
  const op = operation.operationId;
  const { schema, sample } = made;
  const step = (text: string) => ({ operation, body: { kind: 'raw' as const, text }, headers: { 'content-type': CONTENT_TYPE } });
  const valid = makeCase({
    kind: 'media-types',
    id: `${op}/multipart`,
    name: `${op} accepts a valid body sent as ${MULTIPART}`,
    description: `Given a valid body encoded as ${MULTIPART}, each file a part with a filename, which the contract documents for ${op}, when it is sent, then the answer is its documented success, in its documented schema.`,
    steps: [{ ...step(multipartText(sample, schema) as string), expect: { status: successStatuses(operation) } }],
  });
  const [missing] = [...(objectShape(schema)?.required ?? [])].filter((name) => Object.hasOwn(sample, name));
  if (missing === undefined) return [valid];
  const { [missing]: _left, ...rest } = sample as Record<string, unknown>;
  const text = multipartText(rest, schema);
  if (text === undefined) return [valid];
  const refusals = invalidInputStatuses(operation);
  const without = makeCase({
    kind: 'media-types',
    id: `${op}/multipart-without-${missing}`,
    name: `${op} refuses a ${MULTIPART} body without its required ${missing}`,
    description:
      refusals.length === 0
        ? `Given a ${MULTIPART} body without ${missing}, which the schema requires, when it is sent to ${op}, then the answer is recorded: the contract documents no refusal for this operation.`
        : `Given a ${MULTIPART} body without ${missing}, which the schema requires, when it is sent to ${op}, then it is refused with ${refusals.join(' or ')}.`,
    steps: [
      {
        ...step(text),
        ...(refusals.length === 0
          ? { observe: `what ${op} answers to a ${MULTIPART} body without its required ${missing}` }
          : { expect: { status: refusals } }),
      },
    ],
  });
  return [valid, without];
}
