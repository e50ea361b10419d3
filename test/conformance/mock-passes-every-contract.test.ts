import { describe } from 'vitest';
import { FIRST_CONTRACTS, mockPassesEach } from './mock-passes.js';

// The toolkit's two halves on each contract the tests keep (evolved, restyled, another API): the mock is a correct
// server of its contract, so the runner's default run against it (scenario files and every generated kind) passes.
describe('the runner against the mock, on every test contract', () => {
  mockPassesEach(FIRST_CONTRACTS, 200);
});
