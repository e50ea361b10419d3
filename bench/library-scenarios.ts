// A second resource, served by the mock's generic handlers and store: the authors of test/contracts/library-api
// (string ids, a PUT and a DELETE), and a book nested under an author (issue 22).
import { join } from 'node:path';
import { packageRoot } from '../src/contract/package-root.js';
import type { Scenario } from './scenarios.js';

export const LIBRARY_CONTRACT = join(packageRoot(), 'test/contracts/library-api/openapi.yaml');

/** The nth seeded author's id: a UUID, as the contract's format asks. */
export function seededAuthorId(n: number): string {
  return `00000000-0000-4000-8000-${n.toString(16).padStart(12, '0')}`;
}

/** A fixtures file's text (`--fixtures`) holding `count` authors, seeded ids 0 to count - 1. */
export function libraryFixtures(count: number): string {
  const records: string[] = [];
  for (let n = 0; n < count; n++) records.push(`{"id":"${seededAuthorId(n)}","name":"author-${n}"}`);
  return `{"/authors":[${records.join(',')}]}`;
}

/**
 * Reads and writes of one author, the last seeded (deletes start from the first); a delete takes the next seeded
 * author in each request, so every request of the run deletes a record that exists.
 */
export function libraryScenarios(records: number): Scenario[] {
  const author = `/authors/${seededAuthorId(records - 1)}`;
  const book = '978-0-00-000001-1';
  return [
    {
      id: 'createAuthor',
      operationId: 'createAuthor',
      method: 'POST',
      path: '/authors',
      body: '{"name":"Ada Lovelace","country":"GB","born":1815}',
      expectedStatus: 201,
    },
    { id: 'getAuthor', operationId: 'getAuthor', method: 'GET', path: author, expectedStatus: 200 },
    {
      id: 'replaceAuthor',
      operationId: 'replaceAuthor',
      method: 'PUT',
      path: author,
      body: '{"name":"Ada Lovelace","country":"GB","born":1815}',
      expectedStatus: 200,
    },
    {
      id: 'deleteAuthor',
      operationId: 'deleteAuthor',
      method: 'DELETE',
      path: '/authors/{seeded, in turn}',
      pathOf: (n) => `/authors/${seededAuthorId(n)}`,
      expectedStatus: 204,
    },
    {
      id: 'getBook (nested)',
      operationId: 'getBook',
      method: 'GET',
      path: `${author}/books/${book}`,
      expectedStatus: 200,
      before: {
        method: 'POST',
        path: `${author}/books`,
        body: `{"isbn":"${book}","title":"Notes on the Analytical Engine","genre":"essay"}`,
        expectedStatus: 201,
      },
    },
  ];
}
