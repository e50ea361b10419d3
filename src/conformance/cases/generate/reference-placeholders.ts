import type { JsonSchema } from '../../../contract/operation.js';
import { createRandom } from './create-random.js';
import { absentValue } from './own-records.js';
import { sampleValue } from './sample-value.js';

/**
 * The values a generated case sends in a field that refers to another resource's records (an order's petId) where
 * it means "a record of the case's own": the field's sample, and a second one for a case that needs two (a filter's
 * decoy). bindOwnRecords gives each a record the case creates first; fixed, so that it can tell them.
 */
export function referencePlaceholders(schema: JsonSchema): readonly [unknown, unknown] {
  return [sampleValue(schema), absentValue(schema, createRandom(SECOND))];
}

const SECOND = 2;
