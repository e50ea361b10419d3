import { describe, expect, it } from 'vitest';
import { loadContract } from '../../../contract/load-contract.js';
import { generateCases } from './generate-cases.js';

// JSON:API's PATCH /articles/{id} requires data.id, which must be the id the path names.
describe('a write to an item whose body requires the id', async () => {
  const contract = await loadContract('test/contracts/jsonapi-articles/openapi.yaml');
  const { cases } = generateCases(contract, { seed: 1, token: 'k', kinds: undefined, maxCases: undefined });
  const patch = (id: string) => cases.find((c) => c.id === id)?.steps.find((s) => s.operation.operationId === 'updateArticle');

  it('carries the id its path names', () => {
    const step = patch('valid-bodies/updateArticle/required-fields-only');
    const id = step?.path.id;
    expect(id).toMatch(/^\{\{bound\d+\.body\.data\.id\}\}$/);
    expect(step?.body).toEqual({ kind: 'json', value: { data: { type: 'articles', id } } });
  });
});
