import { stringifyJson } from '../../../../contract/lossless-json.js';
import type { Contract } from '../../../../contract/load-contract.js';
import { largestPageQuery } from '../../../../contract/list-parameters.js';
import { requestSchema } from '../../../../contract/resources/representation.js';
import type { Resource } from '../../../../contract/resources/resource.js';
import { namingField } from '../../../../contract/resources/resource-roles.js';
import type { JsonSchema, Operation } from '../../../../contract/operation.js';
import type { Scenario, Step } from '../../scenario.js';
import type { CaseKind } from '../case-kind.js';
import { invalidInputStatus, invalidInputStatuses, successStatuses } from '../expected-statuses.js';
import { markedList } from '../marked-list.js';
import { makeCase } from '../make-case.js';
import { rareFilter } from '../rare-filter.js';
import type { Random } from '../create-random.js';
import { patternValues } from '../pattern-values.js';
import { sampleValue } from '../sample-value.js';
import { refusedMark, refusedMarksIn } from '../../resource-marks.js';

interface Invalid {
  readonly id: string;
  readonly what: string;
  readonly body: NonNullable<Step['body']>;
  /** The field the body spoils, where it spoils one. */
  readonly field?: string;
}

const json = (value: unknown): Invalid['body'] => ({ kind: 'json', value });
const raw = (text: string): Invalid['body'] => ({ kind: 'raw', text });

// A value of each JSON type the schema does not allow (integer: also what lenient parsers take for one).
const WRONG_TYPES: Readonly<Record<string, readonly { id: string; what: string; value: unknown }[]>> = {
  string: [
    { id: 'number', what: 'a number', value: 42 },
    { id: 'boolean', what: 'a boolean', value: true },
    { id: 'object', what: 'an object', value: { text: 'x' } },
    { id: 'array', what: 'an array', value: ['x'] },
  ],
  integer: [
    { id: 'numeric-string', what: 'a numeric string', value: '1' },
    { id: 'fraction', what: 'a fraction', value: 1.5 },
    { id: 'boolean', what: 'a boolean', value: true },
    { id: 'array', what: 'an array', value: [1] },
  ],
};

const INT64_BEYOND = [
  { id: 'above-int64', what: '2^63, one past the int64 maximum', value: 2n ** 63n },
  { id: 'below-int64', what: '-2^63-1, one past the int64 minimum', value: -(2n ** 63n) - 1n },
];

// A string longer than this is not sent to exceed a maxLength: the body cap of a server may refuse it first.
const LONGEST_SENT = 100_000;

/** A value just past each bound the schema sets: below its minimum or minLength, above its maximum or maxLength. */
function beyondBounds(property: JsonSchema): { id: string; what: string; value: unknown }[] {
  const out: { id: string; what: string; value: unknown }[] = [];
  if (property.type === 'integer' || property.type === 'number') {
    const low = pastBound(property.minimum, property.exclusiveMinimum, -1);
    if (low !== undefined)
      out.push({
        id: 'below-minimum',
        what: `${low.at}, ${low.at === low.bound ? 'at its exclusive' : 'below its'} minimum ${low.bound}`,
        value: low.at,
      });
    const high = pastBound(property.maximum, property.exclusiveMaximum, 1);
    if (high !== undefined)
      out.push({
        id: 'above-maximum',
        what: `${high.at}, ${high.at === high.bound ? 'at its exclusive' : 'above its'} maximum ${high.bound}`,
        value: high.at,
      });
  }
  if (property.type === 'string' && !property.enum) {
    if (property.minLength !== undefined && property.minLength > 0)
      out.push({
        id: 'below-min-length',
        what: `${property.minLength - 1} characters, below its minLength ${property.minLength}`,
        value: 'x'.repeat(property.minLength - 1),
      });
    if (property.maxLength !== undefined && property.maxLength < LONGEST_SENT)
      out.push({
        id: 'above-max-length',
        what: `${property.maxLength + 1} characters, above its maxLength ${property.maxLength}`,
        value: 'x'.repeat(property.maxLength + 1),
      });
  }
  return out;
}

// The first value a bound refuses, `step` past it: one past an inclusive bound, the bound itself where it is
// exclusive (a flag in OpenAPI 3.0, a number in 3.1).
function pastBound(bound: number | undefined, exclusive: number | boolean | undefined, step: number) {
  if (typeof exclusive === 'number') return { bound: exclusive, at: exclusive };
  if (bound === undefined) return undefined;
  return { bound, at: exclusive === true ? bound : bound + step };
}

export const invalidBodiesKind: CaseKind = {
  id: 'invalid-bodies',
  description:
    'bodies the schema refuses (a required field missing or null, wrong types, enum violations, pattern mismatches, values past a minimum, maximum, minLength or maxLength, integers beyond int64, non-objects, invalid JSON) get the documented 400',
  generate: (context) =>
    context.contract.operations.flatMap((operation) => {
      const schema = requestSchema(operation);
      const media = jsonMediaType(operation);
      return schema?.type === 'object' && media !== undefined
        ? casesFor(operation, schema, context.random, context.contract, media)
        : [];
    }),
};

// The JSON media type the operation takes a body as: application/json, else one that is JSON under another name
// (application/merge-patch+json, RFC 7396, whose documents are held to the same schema).
function jsonMediaType(operation: Operation): string | undefined {
  const types = operation.requestBody?.contents.map((c) => c.mediaType) ?? [];
  return types.includes('application/json') ? 'application/json' : types.find((t) => /^application\/[^;]*\+json$/i.test(t));
}

function casesFor(operation: Operation, schema: JsonSchema, random: Random, contract: Contract, media: string): Scenario[] {
  // The first required text field carries a mark of its own in each body (refused-not-stored looks for it in what
  // the target answers later): a refused create must not have stored anything.
  // A schema that requires nothing (a merge patch's) samples as {}: its optional fields give the JSON to spoil.
  const required = sampleValue(schema) as Record<string, unknown>;
  const sample = Object.keys(required).length > 0 ? required : (sampleValue(schema, true) as Record<string, unknown>);
  const marked = namingField(schema);
  const fresh = (): Record<string, unknown> => (marked === undefined ? sample : { ...sample, [marked]: refusedMark(random) });
  const invalid: Invalid[] = [];
  for (const name of schema.required ?? []) {
    const { [name]: _, ...without } = fresh();
    invalid.push({ id: `${name}/missing`, what: `no ${name} (required)`, body: json(without), field: name });
  }
  for (const [name, property] of Object.entries(schema.properties ?? {})) {
    const before = invalid.length;
    // Only a required field must not be null: a server may read null in an optional one as "not given".
    if (!property.nullable && schema.required?.includes(name)) {
      invalid.push({ id: `${name}/null`, what: `${name} null`, body: json({ ...fresh(), [name]: null }) });
    }
    for (const wrong of WRONG_TYPES[property.type ?? ''] ?? []) {
      invalid.push({
        id: `${name}/${wrong.id}`,
        what: `${name} as ${wrong.what}`,
        body: json({ ...fresh(), [name]: wrong.value }),
      });
    }
    if (property.format === 'int64') {
      for (const beyond of INT64_BEYOND) {
        invalid.push({
          id: `${name}/${beyond.id}`,
          what: `${name} ${beyond.what}`,
          body: json({ ...fresh(), [name]: beyond.value }),
        });
      }
    }
    for (const beyond of beyondBounds(property)) {
      invalid.push({
        id: `${name}/${beyond.id}`,
        what: `${name} ${beyond.what}`,
        body: json({ ...fresh(), [name]: beyond.value }),
      });
    }
    const { refused } = patternValues(property);
    if (refused !== undefined) {
      invalid.push({
        id: `${name}/pattern-mismatch`,
        what: `${name} ${JSON.stringify(refused)}, which its pattern refuses`,
        body: json({ ...fresh(), [name]: refused }),
      });
    }
    const first = property.enum?.find((v): v is string => typeof v === 'string');
    if (first !== undefined) {
      for (const [id, what, value] of [
        ['enum-other-case', `${JSON.stringify(first.toUpperCase())}, an enum value in another case`, first.toUpperCase()],
        ['enum-empty', 'an empty string, not in its enum', ''],
        ['enum-unknown', 'a value not in its enum', 'conformance-unknown'],
      ] as const) {
        if (!property.enum?.includes(value))
          invalid.push({ id: `${name}/${id}`, what: `${name} ${what}`, body: json({ ...fresh(), [name]: value }) });
      }
    }
    for (let i = before; i < invalid.length; i++) invalid[i] = { ...(invalid[i] as Invalid), field: name };
  }
  for (const [id, what, value] of [
    ['array', 'an array', [fresh()]],
    ['string', 'a string', 'text'],
    ['number', 'a number', 1],
    ['null', 'null', null],
    ['boolean', 'true', true],
  ] as const) {
    invalid.push({ id: `body/${id}`, what: `a body that is ${what}, not an object`, body: json(value) });
  }
  for (const [id, what, body] of [
    ['cut-short', 'JSON cut short', (text: string) => text.slice(0, Math.max(1, text.length - 3))],
    ['trailing-comma', 'JSON with a trailing comma', (text: string) => `${text.slice(0, -1)},}`],
    ['single-quotes', 'single-quoted JSON', (text: string) => text.replaceAll('"', "'")],
    ['not-json', 'plain text', () => 'not json'],
    ['trailing-data', 'a JSON object followed by more text', (text: string) => `${text} trailing`],
    ['two-objects', 'two JSON objects in a row', (text: string) => `${text}${text}`],
    ['empty', 'an empty body', () => ''],
  ] as const) {
    invalid.push({ id: `json/${id}`, what, body: raw(body(stringifyJson(fresh()))) });
  }
  const op = operation.operationId;
  const status = invalidInputStatus(operation);
  // Where the operation documents 400 and 422, either refuses: a schema violation is as often one as the other.
  const statuses = invalidInputStatuses(operation);
  const refusedThenListed = status === undefined ? [] : refusedAddNothing(operation, invalid, statuses, contract);
  const conflicts = operation.responses.some((r) => r.code === '409');
  return [
    ...refusedThenListed,
    ...invalid.map(({ id, what, body, field }) =>
      makeCase({
        kind: 'invalid-bodies',
        id: `${op}/${id}`,
        name: `${op} refuses ${what}`,
        description: `Given a body with ${what}, when it is sent to ${op} as ${media}, then the answer is ${status === undefined ? 'recorded: the contract documents no refusal for it' : `${statuses.join(' or ')} with an Error body`}.`,
        steps: [
          {
            operation,
            body,
            ...(body.kind === 'raw' ? { headers: { 'content-type': media } } : {}),
            ...(status === undefined
              ? { observe: `what ${op} answers to ${what}` }
              : status === 422 && id.startsWith('json/')
                ? {
                    expect: { status: [422, 400] },
                    observe: `whether ${op} answers ${what} with its documented 422 or with HTTP's 400 for a syntax error (RFC 9110 §15.5.1; 422 is for content whose syntax is correct, §15.5.21)`,
                  }
                : {
                    expect: {
                      status:
                        conflicts && field !== undefined && pinned(schema.properties?.[field]) ? [...statuses, 409] : statuses,
                    },
                  }),
          },
        ],
      }),
    ),
  ];
}

/**
 * A member the schema pins to one value (a const, or an enum of one) names what the body is, as a discriminator
 * does: a server that refuses a body of another kind with a documented 409 (JSON:API's rule for a wrong `type`,
 * §7.1.2.2) refuses it as the contract says.
 */
function pinned(property: JsonSchema | undefined): boolean {
  return property !== undefined && (property.const !== undefined || property.enum?.length === 1);
}

/**
 * Refused creates, then the list of what the operation creates, in one case so the list is judged after them:
 * refused-not-stored fails any listed resource that carries a refused body's mark. A full page in another order
 * may not show it; a store that shows the newest first, or holds fewer than a page, does.
 */
function refusedAddNothing(
  operation: Operation,
  invalid: readonly Invalid[],
  statuses: readonly (number | '4XX')[],
  contract: Contract,
): Scenario[] {
  const listed = markedList(contract, operation);
  // One refused body for each field that can be wrong while the mark stays (categoryId missing, status not in its enum).
  const fields = new Set<string>();
  const marked = invalid.filter(({ id, body }) => {
    const field = id.split('/')[0] as string;
    if (fields.has(field) || body.kind !== 'json' || refusedMarksIn(stringifyJson(body.value)).length === 0) return false;
    fields.add(field);
    return true;
  });
  if (!listed || marked.length === 0) return [];
  const list = listed.operation;
  return [
    ...filteredRefusals(operation, list, listed.resource, marked, statuses),
    makeCase({
      kind: 'invalid-bodies',
      id: `${operation.operationId}/refused-adds-nothing`,
      name: `${operation.operationId} adds nothing it refused`,
      description: `Given bodies ${operation.operationId} must refuse (${marked.map((m) => m.what).join('; ')}), each named with a mark of its own, when they are sent and ${list.operationId} is called, then each is refused with ${statuses.join(' or ')} and no listed resource carries a mark.`,
      steps: [
        ...marked.map(({ body }) => ({ operation, body, expect: { status: [...statuses] } })),
        { operation: list, query: largestPageQuery(list), expect: { status: successStatuses(list) } },
      ],
    }),
  ];
}

/**
 * The same refused bodies, those whose filter field is not what makes them invalid, carrying the list's rare filter
 * value, then the list filtered by it: on a target that already holds more than a page, the unfiltered list is
 * full and refused-not-stored says "not verified"; this one can hold them.
 */
function filteredRefusals(
  operation: Operation,
  list: Operation,
  resource: Resource,
  marked: readonly Invalid[],
  statuses: readonly (number | '4XX')[],
): Scenario[] {
  const filter = rareFilter(list, resource);
  const [name, value] = Object.entries(filter)[0] ?? [];
  if (name === undefined) return [];
  const bodies = marked.flatMap(({ id, body }) => {
    const sent = body.kind === 'json' ? body.value : undefined;
    if (id.startsWith(`${name}/`) || sent === null || typeof sent !== 'object' || Array.isArray(sent)) return [];
    return [{ kind: 'json' as const, value: { ...sent, ...filter } }];
  });
  if (bodies.length === 0) return [];
  const op = operation.operationId;
  return [
    makeCase({
      kind: 'invalid-bodies',
      id: `${op}/refused-adds-nothing-filtered`,
      name: `${op} adds nothing it refused, listed by ${name}=${String(value)}`,
      description: `Given ${bodies.length} bodies ${op} must refuse, each with ${name} ${String(value)} and named with a mark of its own, when they are sent and ${list.operationId} is called with ${name}=${String(value)}, then each is refused with ${statuses.join(' or ')} and no listed resource carries a mark.`,
      steps: [
        ...bodies.map((body) => ({ operation, body, expect: { status: [...statuses] } })),
        { operation: list, query: { ...largestPageQuery(list), ...filter }, expect: { status: successStatuses(list) } },
      ],
    }),
  ];
}
