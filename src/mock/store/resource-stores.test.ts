import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadContract } from '../../contract/load-contract.js';
import { inferResources } from '../../contract/resources/infer-resources.js';
import { ResourceStores, scopeOf } from './resource-stores.js';

const record = { type: 'object', required: ['id'], properties: { id: { type: 'string' } } };
const item = (name: string, params: string[]) => ({
  get: {
    operationId: `get${name}`,
    parameters: params.map((p) => ({ name: p, in: 'path', required: true, schema: { type: 'string' } })),
    responses: { '200': { description: 'ok', content: { 'application/json': { schema: record } } } },
  },
});

// Three levels: authors, their books, the books' reviews.
async function stores() {
  const file = join(await mkdtemp(join(tmpdir(), 'stores-')), 'openapi.yaml');
  const paths = {
    '/authors/{authorId}': item('Author', ['authorId']),
    '/authors/{authorId}/books/{bookId}': item('Book', ['authorId', 'bookId']),
    '/authors/{authorId}/books/{bookId}/reviews/{reviewId}': item('Review', ['authorId', 'bookId', 'reviewId']),
  };
  await writeFile(file, JSON.stringify({ openapi: '3.0.3', info: { title: 'T', version: '1' }, paths }));
  const model = inferResources(await loadContract(file));
  return new ResourceStores(model, 100, { limit: Number.POSITIVE_INFINITY, used: 0 });
}

describe('ResourceStores', () => {
  it('deletes a parent with its children and grandchildren, and nothing of another parent', async () => {
    const all = await stores();
    const [authors, books, reviews] = ['/authors', '/authors/{}/books', '/authors/{}/books/{}/reviews'].map((k) => all.store(k));
    for (const author of ['ann', 'bob']) {
      authors?.create({ id: author });
      books?.create({ id: 'b1' }, scopeOf([author]));
      reviews?.create({ id: 'r1' }, scopeOf([author, 'b1']));
    }
    expect(all.remove('/authors', 'ann')).toBe(true);
    expect(books?.getJson('b1', scopeOf(['ann']))).toBeUndefined();
    expect(reviews?.getJson('r1', scopeOf(['ann', 'b1']))).toBeUndefined();
    expect(books?.getJson('b1', scopeOf(['bob']))).toBe('{"id":"b1"}');
    expect(reviews?.getJson('r1', scopeOf(['bob', 'b1']))).toBe('{"id":"r1"}');
    expect([authors?.size, books?.size, reviews?.size]).toEqual([1, 1, 1]);
    expect(all.remove('/authors', 'ann')).toBe(false);
  });
});
