/**
 * The format of a scenario file, as JSON Schema, and the header rules a schema would word badly: files are
 * validated against both before anything is sent. docs/reference/scenario-format.md describes the same
 * fields for people.
 */
const STATUS = {
  oneOf: [
    { type: 'integer', minimum: 100, maximum: 599 },
    { type: 'string', pattern: '^[1-5]XX$' },
  ],
};

const SCALAR = ['string', 'number', 'boolean'];

const STEP = {
  type: 'object',
  additionalProperties: false,
  required: ['operation'],
  properties: {
    operation: { type: 'string', minLength: 1, description: 'an operationId, or METHOD /path as in the contract' },
    params: { type: 'object', additionalProperties: { type: SCALAR }, description: 'path parameters' },
    // A list repeats the parameter (?status=a&status=b); an object has no form in a query string.
    query: { type: 'object', additionalProperties: { type: [...SCALAR, 'array'], items: { type: SCALAR } } },
    headers: { type: 'object', additionalProperties: { type: SCALAR } },
    body: { description: 'a JSON body, sent with Content-Type: application/json' },
    rawBody: { type: 'string', description: 'a body sent exactly as written, with only the headers given' },
    auth: { type: 'string', minLength: 1 },
    capture: { type: 'string', pattern: '^[A-Za-z_][A-Za-z0-9_-]*$' },
    observe: { type: 'string', minLength: 1 },
    repeat: {
      oneOf: [
        { type: 'integer', minimum: 1, maximum: 1000 },
        {
          type: 'object',
          additionalProperties: false,
          required: ['count'],
          properties: { count: { type: 'integer', minimum: 1, maximum: 1000 }, less: { type: 'string', minLength: 1 } },
        },
      ],
    },
    walk: {
      oneOf: [
        { type: 'boolean' },
        {
          type: 'object',
          additionalProperties: false,
          properties: {
            maxPages: { type: 'integer', minimum: 1, maximum: 1000 },
            atLeast: { type: 'integer', minimum: 0 },
            ownCollection: { type: 'boolean' },
          },
        },
      ],
      description: 'read the list page after page by the cursor each answer carries',
    },
    expect: {
      type: 'object',
      additionalProperties: false,
      properties: {
        status: { oneOf: [STATUS, { type: 'array', minItems: 1, items: STATUS }] },
        body: {},
        bodyEach: {},
        bodyIncludes: {
          type: 'object',
          additionalProperties: false,
          required: ['item'],
          properties: {
            item: { description: 'a subset that at least one element of an array body must contain' },
            whenShorterThan: {
              type: 'integer',
              minimum: 1,
              description: 'applies only to a body of fewer items: a full page may leave the item for a later one',
            },
          },
        },
        bodyLength: {
          type: 'object',
          additionalProperties: false,
          minProperties: 1,
          properties: {
            min: { type: 'integer', minimum: 0 },
            max: { type: 'integer', minimum: 0 },
            equals: { type: 'integer', minimum: 0 },
          },
        },
        headers: { type: 'object', additionalProperties: { type: ['string', 'boolean'] } },
      },
    },
  },
};

export const SCENARIO_FORMAT = {
  type: 'object',
  additionalProperties: false,
  required: ['scenarios'],
  properties: {
    scenarios: {
      type: 'array',
      minItems: 1,
      items: {
        type: 'object',
        additionalProperties: false,
        required: ['name', 'description', 'steps'],
        properties: {
          name: { type: 'string', minLength: 1 },
          description: { type: 'string', minLength: 1 },
          tags: { type: 'array', items: { type: 'string', minLength: 1 } },
          steps: { type: 'array', minItems: 1, items: STEP },
        },
      },
    },
  },
} as const;

// RFC 9110 §5.1: a field name is a token.
const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
// RFC 9110 §5.5: visible ASCII, Latin-1 obs-text, space and tab; undici refuses anything else before sending.
const FIELD_VALUE = /^[\t\x20-\x7E\x80-\xFF]*$/;
// The client writes these from the request itself: one given by hand cannot be sent, or contradicts the body.
const CLIENT_HEADERS = new Set(['content-length', 'transfer-encoding', 'connection', 'keep-alive', 'upgrade', 'expect']);

/** Why `name` cannot be sent as a request header, or undefined when it can. */
export function headerNameProblem(name: string): string | undefined {
  if (!TOKEN.test(name)) return `'${name}' is not a header name (RFC 9110: letters, digits and !#$%&'*+-.^_\`|~ only)`;
  if (CLIENT_HEADERS.has(name.toLowerCase())) return `${name} is written by the HTTP client from the request itself`;
  return undefined;
}

/** Why `value` cannot be sent as a header value, or undefined when it can. */
export function fieldValueProblem(value: string): string | undefined {
  if (FIELD_VALUE.test(value)) return undefined;
  const bad = [...value].find((c) => !FIELD_VALUE.test(c)) as string;
  const kind = (bad.codePointAt(0) as number) > 0xff ? 'a character outside Latin-1' : 'a control character';
  return `a header value cannot hold ${kind} (${JSON.stringify(bad)}): RFC 9110 allows visible characters, space and tab`;
}
