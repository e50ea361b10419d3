import { describe, expect, it } from 'vitest';
import { linkedSchema, selfContainedSchema } from './bundled-refs.js';
import { compileSchema } from './compile-schema.js';

// A tree as Prism's model writes it: the first node inlined, what recurs referred to in the operation's bundle.
const bundled = {
  node: {
    type: 'object',
    required: ['name'],
    properties: { name: { type: 'string' }, children: { type: 'array', items: { $ref: '#/__bundled__/node' } } },
  },
};
const tree = {
  type: 'object',
  required: ['name'],
  properties: { name: { type: 'string' }, children: { type: 'array', items: { $ref: '#/__bundled__/node' } } },
};

describe('linkedSchema', () => {
  it('links each bundled $ref to one node, so that a recursive schema contains itself', () => {
    const linked = linkedSchema(tree, bundled) as {
      properties: { children: { items: { properties: { children: { items: unknown } } } } };
    };
    const child = linked.properties.children.items;
    expect(child.properties.children.items).toBe(child);
  });

  it('leaves a schema with no bundle as it is', () => {
    expect(linkedSchema(tree, undefined)).toBe(tree);
  });
});

describe('selfContainedSchema', () => {
  it('points the refs at definitions of its own (draft 7) and at $defs (2020-12), with only those reached', () => {
    const draft7 = selfContainedSchema(tree, { ...bundled, unused: { type: 'string' } }, 'draft-07', (s) => s) as Record<
      string,
      unknown
    >;
    expect(Object.keys(draft7.definitions as object)).toEqual(['node']);
    expect(JSON.stringify(draft7)).not.toContain('__bundled__');
    const validate = compileSchema(draft7, 'body');
    expect(validate({ name: 'a', children: [{ name: 'b', children: [{ name: 'c' }] }] })).toEqual([]);
    expect(validate({ name: 'a', children: [{ name: 'b', children: [{}] }] })).toEqual([
      { path: 'body.children[0].children[0].name', message: 'is required' },
    ]);
    const modern = selfContainedSchema(tree, bundled, '2020-12', (s) => s) as Record<string, unknown>;
    expect(Object.keys(modern.$defs as object)).toEqual(['node']);
    expect(compileSchema(modern, 'body', '2020-12')({ name: 'a', children: [{ name: 3 }] })).toEqual([
      { path: 'body.children[0].name', message: 'must be string' },
    ]);
  });
});
