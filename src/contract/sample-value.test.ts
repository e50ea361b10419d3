import { describe, expect, it } from 'vitest';
import { compileSchema, type SchemaDialect } from './compile-schema.js';
import type { JsonSchema } from './operation.js';
import { endlessRecursion, sampleValue, unmadeSample } from './sample-value.js';
import { freshString } from './sample/string-sample.js';

const valid = (schema: JsonSchema, value: unknown, dialect: SchemaDialect = 'draft-07') =>
  compileSchema(schema, 'value', dialect)(value);

describe('sampleValue', () => {
  const schemas: Record<string, JsonSchema> = {
    uuid: { type: 'string', format: 'uuid' },
    email: { type: 'string', format: 'email' },
    'long email': { type: 'string', format: 'email', minLength: 30 },
    'short email': { type: 'string', format: 'email', maxLength: 12 },
    date: { type: 'string', format: 'date' },
    'date-time': { type: 'string', format: 'date-time' },
    time: { type: 'string', format: 'time' },
    uri: { type: 'string', format: 'uri' },
    url: { type: 'string', format: 'url' },
    'uri-reference': { type: 'string', format: 'uri-reference' },
    hostname: { type: 'string', format: 'hostname' },
    ipv4: { type: 'string', format: 'ipv4' },
    ipv6: { type: 'string', format: 'ipv6' },
    byte: { type: 'string', format: 'byte' },
    'minLength 8': { type: 'string', minLength: 8, maxLength: 128 },
    'free text minLength 12': { type: 'string', minLength: 12 },
    'maxLength 3': { type: 'string', maxLength: 3 },
    'uuid example that is none': { type: 'string', format: 'uuid', example: 'not-a-uuid' },
    'pattern with literals and classes': { type: 'string', pattern: '^SKU-[A-Z]{3}-\\d{4}$' },
    'pattern with alternation': { type: 'string', pattern: '^(draft|live)-[a-z0-9_]+$' },
    'pattern with escapes and ranges': { type: 'string', pattern: '^[\\w.-]+\\.(png|jpe?g)$' },
    'pattern and minLength': { type: 'string', pattern: '^[a-z]+$', minLength: 5, maxLength: 6 },
    'unanchored pattern': { type: 'string', pattern: '[0-9]{2}' },
    'named group and negated class': { type: 'string', pattern: '^(?<code>[^\\s/]{2,4})/x$' },
    'integer multipleOf': { type: 'integer', minimum: 3, multipleOf: 5 },
    'array minItems uniqueItems': { type: 'array', items: { type: 'string', format: 'email' }, minItems: 3, uniqueItems: true },
    'array of enum, unique': { type: 'array', items: { type: 'string', enum: ['a', 'b'] }, minItems: 2, uniqueItems: true },
    'array of unique pattern strings': {
      type: 'array',
      items: { type: 'string', pattern: '^[a-z]+$' },
      minItems: 3,
      uniqueItems: true,
    },
    'byte with the pattern Prism adds': { type: 'string', format: 'byte', pattern: '^[\\w\\d+\\/=]*$', minLength: 1 },
    'array maxItems 0': { type: 'array', items: { type: 'string' }, maxItems: 0 },
  };
  for (const [name, schema] of Object.entries(schemas)) {
    it(`makes a valid ${name}`, () => {
      const value = sampleValue(schema);
      expect(valid(schema, value), JSON.stringify(value)).toEqual([]);
      expect(unmadeSample(schema)).toBeUndefined();
    });
  }

  it('sends the OpenAPI 3.1 prefixItems in order, then items to minItems', () => {
    const schema: JsonSchema = {
      type: 'array',
      prefixItems: [
        { type: 'string', format: 'date' },
        { type: 'string', format: 'date' },
      ],
      items: false as unknown as JsonSchema,
      minItems: 2,
    };
    const value = sampleValue(schema);
    expect(value).toEqual(['2026-01-01', '2026-01-01']);
    expect(valid(schema, value, '2020-12')).toEqual([]);
  });

  it("takes an array's 3.1 examples where they fit, and skips those that do not", () => {
    const schema = { type: 'array', items: { type: 'integer', maximum: 5 }, examples: [[9], [1, 2]] } as JsonSchema;
    expect(sampleValue(schema)).toEqual([1, 2]);
  });

  it('takes const, the examples that validate and the default, in that order', () => {
    expect(sampleValue({ type: 'string', const: 'fixed' } as JsonSchema)).toBe('fixed');
    expect(sampleValue({ type: 'string', format: 'email', examples: ['nope', 'ada@example.com'] })).toBe('ada@example.com');
    expect(sampleValue({ type: 'string', pattern: '^[A-Z]{2}$', example: 'abc', default: 'FR' })).toBe('FR');
    expect(sampleValue({ type: 'integer', maximum: 10, example: 99, default: 7 })).toBe(7);
  });

  it('marks free text, long enough before the mark', () => {
    expect(sampleValue({ type: 'string', example: 'Rex' }, { mark: '{{run.id}}' })).toBe('Rex {{run.id}}');
    expect(sampleValue({ type: 'string', minLength: 10 }, { mark: 'M' })).toBe('sample0123 M');
  });

  it('names the construct it cannot make a value for, and keeps a valid example of it', () => {
    const lookahead: JsonSchema = { type: 'string', pattern: '^(?=.*\\d)[a-z\\d]{8,}$' };
    expect(unmadeSample(lookahead)).toMatch(/lookahead/);
    expect(unmadeSample({ ...lookahead, example: 'abcdefg1' })).toBeUndefined();
    expect(sampleValue({ ...lookahead, example: 'abcdefg1' })).toBe('abcdefg1');
    expect(unmadeSample({ type: 'string', pattern: '^(a)\\1$' })).toMatch(/back-reference/);
    expect(unmadeSample({ type: 'string', pattern: '^[a-z]{5}$', maxLength: 3 })).toMatch(/no string of 0 to 3/);
  });
});

describe('freshString', () => {
  const draws = (seed: number) => {
    let state = seed;
    return (n: number) => {
      state = (state * 48271) % 2147483647;
      return state % n;
    };
  };
  const cases: Record<string, [JsonSchema, string]> = {
    'an email': [{ type: 'string', format: 'email' }, 'sample@example.com'],
    'an email-like example without a format': [{ type: 'string', maxLength: 254 }, 'grace@example.com'],
    'a pattern': [{ type: 'string', pattern: '^user_[a-z]{3,12}$' }, 'user_aaa'],
    'a bounded text': [{ type: 'string', minLength: 8, maxLength: 12 }, 'sample01'],
    'a hostname': [{ type: 'string', format: 'hostname' }, 'example.com'],
  };
  for (const [name, [schema, plain]] of Object.entries(cases)) {
    it(`draws ${name} the schema allows, other than the plain one, and others with other draws`, () => {
      const one = freshString(schema, plain, 'k3v9x0q2', draws(7));
      const two = freshString(schema, plain, 'p8m2c4z1', draws(11));
      expect(one).not.toBe(plain);
      expect(one).not.toBe(two);
      expect(valid(schema, one)).toEqual([]);
      expect(valid(schema, two)).toEqual([]);
    });
  }
});

describe('sampleValue of a schema that contains itself', () => {
  // Schemas as the loaded contract links them (bundled-refs.ts): a recursive one is a graph that contains itself.
  type Node = { type: string; required?: string[]; properties: Record<string, unknown> };
  const node: Node = { type: 'object', required: ['name'], properties: { name: { type: 'string' } } };
  node.properties.children = { type: 'array', items: node };
  const rule: Node = { type: 'object', required: ['match'], properties: { match: { enum: ['all', 'any'] } } };
  const clause: Node = { type: 'object', required: ['field'], properties: { field: { type: 'string' }, nested: rule } };
  rule.properties.clauses = { type: 'array', minItems: 1, items: clause };
  const chain: Node = { type: 'object', required: ['next'], properties: { text: { type: 'string' } } };
  chain.properties.next = chain;

  it('nests a tree at most RECURSION_DEPTH times, leaving optional recursion out and arrays of it empty', () => {
    expect(sampleValue(node as JsonSchema)).toEqual({ name: 'sample' });
    expect(sampleValue(node as JsonSchema, { withOptional: true })).toEqual({
      name: 'sample',
      children: [{ name: 'sample', children: [{ name: 'sample' }] }],
    });
    expect(endlessRecursion(node as JsonSchema)).toBeUndefined();
  });

  it('ends a mutual recursion whose arrays require an item, and the sample is valid', () => {
    const made = sampleValue(rule as JsonSchema, { withOptional: true });
    expect(made).toEqual({
      match: 'all',
      clauses: [{ field: 'sample', nested: { match: 'all', clauses: [{ field: 'sample' }] } }],
    });
    expect(endlessRecursion(rule as JsonSchema)).toBeUndefined();
  });

  it('stays small where every schema holds every other one', () => {
    // Eight schemas, each with an optional property of each: bounded nesting alone would still make 8^10 values.
    const dense: Node[] = Array.from({ length: 8 }, () => ({
      type: 'object',
      required: ['name'],
      properties: { name: { type: 'string' } },
    }));
    for (const one of dense) for (const [i, other] of dense.entries()) one.properties[`p${i}`] = other;
    const made = JSON.stringify(sampleValue(dense[0] as JsonSchema, { withOptional: true }));
    expect(made.length).toBeLessThan(100_000);
    expect(endlessRecursion(dense[0] as JsonSchema)).toBeUndefined();
  });

  it('names a required self-reference, of which no finite value is valid, and leaves it out where it is optional', () => {
    expect(endlessRecursion(chain as JsonSchema)).toBe(
      'next.next.next.next: a required property whose schema contains itself again at every depth, so no finite value is valid',
    );
    const holder = { type: 'object', properties: { link: chain, note: { type: 'string' } } } as unknown as JsonSchema;
    expect(sampleValue(holder, { withOptional: true })).toEqual({ note: 'sample' });
    expect(endlessRecursion(holder)).toBeUndefined();
  });
});
