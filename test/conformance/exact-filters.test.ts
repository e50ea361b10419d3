import { describe } from 'vitest';
import { useCrudServer } from './use-crud-server.js';

// A filter on a field matched by equality (listOrders' petId, a reference to a pet of the case's own): filtered by
// one value, the list holds the one record created with it, not the one created with another.
const EVOLVED = 'test/contracts/evolved-petstore/openapi.yaml';
const { failsEach } = useCrudServer([
  '--generate',
  'pagination',
  '--case',
  'pagination/*/*-own-value',
  '--seed',
  '1',
  '-r',
  'json',
]);

describe('a list filtered by a value of the case own', () => {
  failsEach([{ contract: EVOLVED, breakage: 'ignores-exact-filter', check: 'body-expected' }]);
});
