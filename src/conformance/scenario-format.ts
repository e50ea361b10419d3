/**
 * The format of a scenario file, as JSON Schema: files are validated against it before anything is sent.
 * The README's "Scenario format" section describes the same fields for people.
 */
const STATUS = {
  oneOf: [
    { type: 'integer', minimum: 100, maximum: 599 },
    { type: 'string', pattern: '^[1-5]XX$' },
  ],
};

const STEP = {
  type: 'object',
  additionalProperties: false,
  required: ['operation'],
  properties: {
    operation: { type: 'string', minLength: 1, description: 'an operationId, or METHOD /path as in the contract' },
    params: { type: 'object', description: 'path parameters' },
    query: { type: 'object' },
    headers: { type: 'object', additionalProperties: { type: ['string', 'number', 'boolean'] } },
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
