import { readdirSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { FIRST_CONTRACTS, MORE_CONTRACTS, mockPassesEach } from './mock-passes.js';

// The rest of test/contracts, one mock after another in one process, in this order: each must be served as if it
// were the first (a Prism config shared by every request once answered jsonapi-articles by async-exports' Accept).
// Some are APIs of one to three operations (write-only makes 3 cases), so no floor but one case.
describe('the runner against the mock, on the other test contracts', () => {
  it('leaves no test contract out of the two lists', () => {
    const listed = new Set([...FIRST_CONTRACTS, ...MORE_CONTRACTS].map((file) => file.split('/')[2]));
    expect(readdirSync('test/contracts').filter((name) => !listed.has(name))).toEqual([]);
  });
  mockPassesEach(MORE_CONTRACTS, 1);
});
