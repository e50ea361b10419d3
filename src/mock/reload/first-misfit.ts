import type { Pause } from '../../contract/load-contract.js';
import type { Validator } from '../../contract/compile-schema.js';
import { parseJson } from '../../contract/lossless-json.js';
import { petChecker } from '../load-fixtures.js';

// Records checked between two pauses: a few milliseconds of work, so that requests keep being answered.
const STEP = 500;

/**
 * The first record the mock holds (any store's, "" the default one, by their JSON texts) or would restore (the
 * fixtures) that `validate` refuses, named as a person finds it, with why; undefined when all fit. A contract
 * reloaded under --watch is adopted only when this finds none: records it refuses would otherwise be served as
 * they are, and refused by the next start.
 */
export async function firstMisfit(
  validate: Validator,
  stores: Iterable<readonly [string, Iterable<string>, string?]>,
  fixtures: readonly unknown[],
  pause?: Pause,
): Promise<string | undefined> {
  let done = 0;
  const step = async () => {
    if (pause && ++done % STEP === 0) await pause();
  };
  for (const [store, records, resource] of stores) {
    // The pets' records only (no resource key): `validate` is their schema. Another resource's records are not yet
    // checked against a reloaded contract.
    if (resource !== undefined) continue;
    const check = petChecker(validate);
    let index = 0;
    for (const text of records) {
      await step();
      const record = parseJson(text);
      const reason = check(record, '');
      if (reason !== undefined) {
        const where = store === '' ? 'the default store' : `session ${JSON.stringify(store)}`;
        const id = (record as { id?: unknown } | null)?.id;
        // The id only: a record's other fields are whatever a client sent.
        return `record ${index + 1} of ${where}${typeof id === 'number' ? ` (id ${id})` : ''}: ${reason.replace(/^\./, '')}`;
      }
      index++;
    }
  }
  const check = petChecker(validate);
  for (const [index, entry] of fixtures.entries()) {
    await step();
    const reason = check(entry, `[${index}]`);
    if (reason !== undefined) return `fixture entry ${index}: ${reason}`;
  }
  return undefined;
}
