import { stringifyJson } from '../../../../contract/lossless-json.js';
import { requestSchema } from '../../../../contract/resources/representation.js';
import type { Operation } from '../../../../contract/operation.js';
import type { Scenario } from '../../scenario.js';
import type { CaseKind, GenerateContext } from '../case-kind.js';
import { invalidInputStatus } from '../expected-statuses.js';
import { makeCase } from '../make-case.js';
import { freshWrite, roundTrip } from '../round-trip.js';
import { sampleValue } from '../sample-value.js';

// RFC 9110 §8.3.1: type, subtype and parameter names are case-insensitive; charset=utf-8 is JSON's own encoding.
const VALID_SPELLINGS = [
  { id: 'charset-parameter', contentType: 'application/json; charset=utf-8' },
  { id: 'upper-case', contentType: 'Application/JSON' },
];

export const mediaTypesKind: CaseKind = {
  id: 'media-types',
  description:
    'a JSON body is accepted under every spelling of application/json; without Content-Type, or as text/plain, it gets the refusal the operation documents or 415, and is observed where it documents none',
  generate: (context) =>
    context.contract.operations.flatMap((operation) =>
      operation.requestBody?.contents.some((c) => c.mediaType === 'application/json') ? casesFor(operation, context) : [],
    ),
};

function casesFor(operation: Operation, context: GenerateContext): Scenario[] {
  const op = operation.operationId;
  const sent = sampleValue(requestSchema(operation));
  const text = stringifyJson(sent);
  const refusal = invalidInputStatus(operation);
  return [
    ...VALID_SPELLINGS.map(({ id, contentType }) => {
      // Each write names its own record where the client names ids, and its own unique keys: the same sample ISBN
      // or email twice is a conflict.
      const own = freshWrite(context.contract, operation, sent, context.random);
      return makeCase({
        kind: 'media-types',
        id: `${op}/${id}`,
        name: `${op} accepts a body sent as ${contentType}`,
        description: `Given a valid body with Content-Type: ${contentType}, when it is sent to ${op}, then it is accepted, and answered unchanged where the new resource can be fetched again.`,
        steps: roundTrip(context.contract, operation, own, {
          body: { kind: 'raw', text: stringifyJson(own) },
          headers: { 'content-type': contentType },
        }),
      });
    }),
    makeCase({
      kind: 'media-types',
      id: `${op}/no-content-type`,
      name: `${op} refuses a body without Content-Type`,
      description: `Given a valid JSON body sent without Content-Type, when it reaches ${op}, then the answer is ${refusal === undefined ? 'recorded (the contract documents no refusal for this operation)' : `${refusal} or 415 (RFC 9110's Unsupported Media Type); which one is recorded`}.`,
      steps: [
        {
          operation,
          body: { kind: 'raw', text },
          // RFC 9110 §8.3: content without a Content-Type may be taken as application/octet-stream, which 415
          // refuses (Spring does). A contract that names this case for its refusal says so in a scenario file.
          ...(refusal === undefined ? {} : { expect: { status: [refusal, 415] } }),
          observe: `what ${op} answers to a body without Content-Type`,
        },
      ],
    }),
    makeCase({
      kind: 'media-types',
      id: `${op}/text-plain`,
      name: `${op} refuses a JSON body sent as text/plain`,
      description:
        refusal === undefined
          ? `Given a valid JSON body sent as text/plain, when it reaches ${op}, then the answer is recorded: the contract documents no refusal for this operation, so accepting it is the server's choice.`
          : `Given a valid JSON body sent as text/plain, when it reaches ${op}, then it is refused with ${refusal} or 415 (RFC 9110's Unsupported Media Type); which one is recorded.`,
      steps: [
        {
          operation,
          body: { kind: 'raw', text },
          headers: { 'content-type': 'text/plain' },
          // RFC 9110 §15.5.16: 415 is HTTP's own refusal of a media type, beside the one the contract documents.
          ...(refusal === undefined ? {} : { expect: { status: [refusal, 415] } }),
          observe: `what ${op} answers to a JSON body sent as text/plain`,
        },
      ],
    }),
  ];
}
