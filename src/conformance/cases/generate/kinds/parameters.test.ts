import { describe, expect, it } from 'vitest';
import type { JsonSchema, ParameterSpec } from '../../../../contract/operation.js';
import { invalidVariants } from './parameters.js';

const query = (schema: JsonSchema): ParameterSpec => ({
  name: 'p',
  in: 'query',
  required: false,
  type: schema.type,
  defaultValue: undefined,
  schema,
  validate: () => [],
});
const ids = (schema: JsonSchema) => invalidVariants(query(schema)).map((v) => v.id);

describe('invalidVariants', () => {
  it('sends an empty value as invalid for a number, not for an array (an empty array) nor an object (no member named)', () => {
    expect(ids({ type: 'integer' })).toContain('empty');
    expect(ids({ type: 'array', items: { type: 'string', enum: ['cat', 'dog'] } })).not.toContain('empty');
    expect(ids({ type: 'array', minItems: 1, items: { type: 'string' } })).toContain('empty');
    expect(ids({ type: 'object', properties: { status: { type: 'string' } } })).not.toContain('empty');
  });

  it("sends an item outside an array's items enum", () => {
    expect(ids({ type: 'array', items: { type: 'string', enum: ['cat', 'dog'] } })).toEqual(['enum-unknown', 'enum-other-case']);
  });
});
