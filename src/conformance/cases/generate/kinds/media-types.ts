import { stringifyJson } from '../../../../contract/lossless-json.js';
import { wrapRequest } from '../../../../contract/resources/envelope.js';
import { requestSchema } from '../../../../contract/resources/representation.js';
import type { JsonSchema, Operation } from '../../../../contract/operation.js';
import type { Scenario } from '../../scenario.js';
import type { CaseKind, GenerateContext } from '../case-kind.js';
import { documentedAnswers, invalidInputStatus, successStatuses } from '../expected-statuses.js';
import { formText } from '../form-text.js';
import { isJsonMedia } from '../../../../contract/find-response.js';
import { primaryJsonType } from '../../accept-for.js';
import { makeCase } from '../make-case.js';
import { freshWrite, roundTrip } from '../round-trip.js';
import { sampleValue } from '../sample-value.js';
import { multipartCases, multipartOf } from './multipart-cases.js';
import { withOwnPath } from './parameters.js';

// RFC 9110 §8.3.1: type, subtype and parameter names are case-insensitive; charset=utf-8 is JSON's own encoding.
const VALID_SPELLINGS = [
  { id: 'charset-parameter', contentType: 'application/json; charset=utf-8' },
  { id: 'upper-case', contentType: 'Application/JSON' },
];

const FORM = 'application/x-www-form-urlencoded';

export const mediaTypesKind: CaseKind = {
  id: 'media-types',
  description:
    'a JSON body is accepted under every spelling of application/json; without Content-Type, or as text/plain, it gets the refusal the operation documents or 415, and is observed where it documents none; a body the contract takes as a form is accepted as one, and as multipart/form-data too, where one without a required field is refused; a GET asking for JSON, or for anything, gets a documented answer',
  generate: (context) =>
    context.contract.operations.flatMap((operation) => [
      ...(operation.requestBody?.contents.some((c) => c.mediaType === 'application/json') ? casesFor(operation, context) : []),
      ...formCase(operation),
      ...multipartCases(operation),
      ...acceptCase(operation, context),
    ]),
  // A body the runner cannot write at all leaves its operation without a body case of any kind: said, never dropped.
  notMade: ({ contract }) =>
    contract.operations.flatMap((operation) => {
      const types = operation.requestBody?.contents.map((c) => c.mediaType) ?? [];
      const writes = (type: string) =>
        isJsonMedia(type) ||
        (type === FORM && formOf(operation) !== undefined) ||
        (type === 'multipart/form-data' && multipartOf(operation) !== undefined);
      if (types.length === 0 || types.some(writes)) return [];
      return [
        {
          operationId: operation.operationId,
          cases: `the body cases of ${operation.operationId} (valid-bodies, invalid-bodies, media-types)`,
          reason: `its request body is ${types.join(' or ')}, which the runner does not write (it writes JSON, and forms and multipart bodies of flat fields)`,
        },
      ];
    }),
};

/** The form text of a valid sample of the operation's form body, when it has one made of flat fields. */
function formOf(operation: Operation): string | undefined {
  const schema = operation.requestBody?.contents.find((c) => c.mediaType === FORM)?.schema as JsonSchema | undefined;
  return schema === undefined ? undefined : formText(sampleValue(schema));
}

// RFC 9110 §8.3 and the contract's content map: a documented form body is one the operation accepts as it is.
function formCase(operation: Operation): Scenario[] {
  const text = formOf(operation);
  if (text === undefined) return [];
  const op = operation.operationId;
  return [
    makeCase({
      kind: 'media-types',
      id: `${op}/form-urlencoded`,
      name: `${op} accepts a valid body sent as ${FORM}`,
      description: `Given a valid body encoded as ${FORM}, which the contract documents for ${op}, when it is sent, then the answer is its documented success, in its documented schema.`,
      steps: [
        {
          operation,
          body: { kind: 'raw', text },
          headers: { 'content-type': FORM },
          expect: { status: successStatuses(operation) },
        },
      ],
    }),
  ];
}

// RFC 9110 §12.5.1: `*/*` takes any media type, and the JSON a GET answers is what `application/json` asks for
// (or the JSON type it is documented in alone: `application/hal+json`); a client sending either (curl sends `*/*`)
// is owed the documented answer, not an undocumented 406.
const accepts = (operation: Operation) => [primaryJsonType(operation), '*/*'];

function acceptCase(operation: Operation, context: GenerateContext): Scenario[] {
  const answersJson = (r: Operation['responses'][number]) =>
    r.code.startsWith('2') && r.contents.some((c) => isJsonMedia(c.mediaType));
  if (operation.method !== 'GET' || !operation.responses.some(answersJson)) return [];
  const op = operation.operationId;
  const request = withOwnPath(operation, context);
  // A path left at the contract's sample values (no record of the run's own can be addressed there) names records
  // that need not exist: 404 is an answer too.
  const unbound = Object.keys(request.params ?? {}).length > 0;
  const answers = unbound ? [...new Set([...documentedAnswers(operation), 404])] : documentedAnswers(operation);
  return [
    makeCase({
      kind: 'media-types',
      id: `${op}/accept`,
      name: `${op} answers a request that accepts JSON, or anything`,
      description: `Given a valid request to ${op} sent with Accept: ${primaryJsonType(operation)}, and again with Accept: */*, when each is sent, then each gets an answer the contract documents for ${op}.`,
      steps: accepts(operation).map((accept) => ({
        ...request,
        headers: { accept },
        expect: { status: answers },
      })),
    }),
  ];
}

function casesFor(operation: Operation, context: GenerateContext): Scenario[] {
  const op = operation.operationId;
  const sent = sampleValue(requestSchema(operation));
  const text = stringifyJson(wrapRequest(operation, sent));
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
          body: { kind: 'raw', text: stringifyJson(wrapRequest(operation, own)) },
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
