import { describe, expect, it } from 'vitest';
import { loadContract } from '../../../../contract/load-contract.js';
import { generateCases } from '../generate-cases.js';

// A JSON:API contract: `type` is an enum of one (articles), and createArticle documents 400, 409 and 422.
describe('invalid bodies that spoil a member pinned to one value', async () => {
  const contract = await loadContract('test/contracts/jsonapi-articles/openapi.yaml');
  const { cases } = generateCases(contract, { seed: 1, token: 'k', kinds: ['invalid-bodies'], maxCases: undefined });
  const statusOf = (id: string) => cases.find((c) => c.id === id)?.steps.at(-1)?.expect.status;

  it('accept the documented 409 where the pinned member is wrong or missing', () => {
    expect(statusOf('invalid-bodies/createArticle/type/enum-unknown')).toEqual([400, 422, 409]);
    expect(statusOf('invalid-bodies/createArticle/type/missing')).toEqual([400, 422, 409]);
  });

  it('still demand 400 or 422 for any other field, and for a body that is not an object', () => {
    expect(statusOf('invalid-bodies/createArticle/attributes/null')).toEqual([400, 422]);
    expect(statusOf('invalid-bodies/createArticle/body/string')).toEqual([400, 422]);
  });
});
