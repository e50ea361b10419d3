import { afterAll, describe, expect, it } from 'vitest';
import { createMockServer } from '../../src/mock/create-mock-server.js';
import { call } from '../support/http.js';

// A contract of schemas that refer to themselves (test/contracts/category-tree), served over real HTTP.
const TREE = 'test/contracts/category-tree/openapi.yaml';

type Row = Record<string, unknown>;

// A chain of subcategories `levels` deep, each the only child of the one above.
function chain(levels: number, leaf: Row = { name: 'leaf' }): Row {
  let node = leaf;
  for (let i = 0; i < levels; i++) node = { name: `level-${i}`, children: [node] };
  return node;
}

describe('the mock on recursive schemas', async () => {
  const mock = await createMockServer({ contract: TREE, fixtures: false, port: 0, host: '127.0.0.1', log: () => {} });
  afterAll(() => mock.close());
  const tree = {
    name: 'Books',
    children: [{ name: 'Fiction', children: [{ name: 'Crime', position: 2, children: [{ name: 'Noir' }] }] }],
    rule: { match: 'all', clauses: [{ field: 'lang', nested: { match: 'any', clauses: [{ field: 'x', equals: null }] } }] },
    label: { text: 'a', next: { text: 'b', next: { text: 'c' } } },
  };

  it('creates, gets, lists, replaces, merges and deletes records whose bodies nest recursively', async () => {
    const made = await call(mock.url, 'POST', '/categories', { body: tree });
    expect(made.status).toBe(201);
    const id = (made.json as Row).id;
    expect(made.json).toEqual({ id, ...tree });
    expect((await call(mock.url, 'GET', `/categories/${id}`)).json).toEqual({ id, ...tree });
    expect((await call(mock.url, 'GET', '/categories')).json).toEqual([{ id, ...tree }]);

    const replaced = { name: 'Books', children: [{ name: 'Poetry', children: [] }] };
    expect((await call(mock.url, 'PUT', `/categories/${id}`, { body: replaced })).json).toEqual({ id, ...replaced });
    const patched = await call(mock.url, 'PATCH', `/categories/${id}`, {
      body: { children: tree.children },
      headers: { 'content-type': 'application/merge-patch+json' },
    });
    expect(patched.json).toEqual({ id, name: 'Books', children: tree.children });
    expect((await call(mock.url, 'DELETE', `/categories/${id}`)).status).toBe(204);
    expect((await call(mock.url, 'GET', `/categories/${id}`)).status).toBe(404);
  });

  it('refuses a wrong value deep in the tree, in a mutual recursion and across files, naming where', async () => {
    const cases: [Row, string][] = [
      [
        { name: 'a', children: [{ name: 'b', children: [{ name: 'c', position: 'x' }] }] },
        'body.children[0].children[0].position',
      ],
      [
        { name: 'a', rule: { match: 'all', clauses: [{ field: 'f', nested: { match: 'none' } }] } },
        'body.rule.clauses[0].nested.match',
      ],
      [{ name: 'a', label: { text: 'a', next: { text: 'b', next: { text: 3 } } } }, 'body.label.next.next.text'],
    ];
    for (const [body, where] of cases) {
      const refused = await call(mock.url, 'POST', '/categories', { body });
      expect(refused.status).toBe(400);
      expect((refused.json as Row).title).toContain(where);
    }
  });

  it('takes a tree 100 levels deep, and refuses one 10,000 levels deep with a 400 Error body', async () => {
    const deep = await call(mock.url, 'POST', '/categories', { body: { name: 'deep', children: [chain(100)] } });
    expect(deep.status).toBe(201);
    const hostile = `${'{"name":"x","children":['.repeat(10_000)}${']}'.repeat(10_000)}`;
    const refused = await call(mock.url, 'POST', '/categories', {
      body: hostile,
      headers: { 'content-type': 'application/json' },
    });
    expect(refused.status).toBe(400);
    expect(refused.json).toMatchObject({ status: 400, title: expect.stringContaining('nested too deeply') });
    // Still answering.
    expect((await call(mock.url, 'GET', '/categories')).status).toBe(200);
  });
});
