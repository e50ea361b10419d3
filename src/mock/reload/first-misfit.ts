import type { Pause } from '../../contract/load-contract.js';
import { parseJson } from '../../contract/lossless-json.js';
import type { AdminResource } from '../resource/admin-records.js';
import { recordProblem } from '../resource/check-records.js';
import type { GivenRecords } from '../session-stores.js';

// Records checked between two pauses: a few milliseconds of work, so that requests keep being answered.
const STEP = 500;

/**
 * The first record the mock holds (any store's, "" the default one, of any resource) or would restore (the
 * fixtures) that the reloaded contract refuses, named as a person finds it, with why; undefined when all fit.
 * `served` is the new contract's resources by key (see adminResources): a record of a resource it no longer keeps
 * does not fit either. A contract reloaded under --watch is adopted only when this finds none: records it refuses
 * would otherwise be served as they are, and refused by the next start.
 */
export async function firstMisfit(
  served: ReadonlyMap<string, AdminResource>,
  stores: Iterable<readonly [string, string, { readonly size: number; jsonRecords(): Iterable<string> }]>,
  fixtures: GivenRecords,
  pause?: Pause,
): Promise<string | undefined> {
  let done = 0;
  const step = async () => {
    if (pause && ++done % STEP === 0) await pause();
  };
  for (const [store, key, records] of stores) {
    const where = store === '' ? 'the default store' : `session ${JSON.stringify(store)}`;
    const entry = served.get(key);
    if (!entry) {
      if (records.size > 0)
        return `the ${records.size} record(s) of ${key} in ${where}: the contract no longer keeps this resource`;
      continue;
    }
    let index = 0;
    for (const text of records.jsonRecords()) {
      await step();
      const record = parseJson(text);
      const reason = recordProblem(entry, record, '');
      if (reason !== undefined) {
        const id = (record as Record<string, unknown> | null)?.[entry.resource.id?.name as string];
        // The id only: a record's other fields are whatever a client sent.
        const named = typeof id === 'number' || typeof id === 'string' ? ` (id ${JSON.stringify(id).slice(0, 40)})` : '';
        return `record ${index + 1} of ${key} in ${where}${named}: ${reason.replace(/^\./, '')}`;
      }
      index++;
    }
  }
  for (const [key, { records }] of fixtures) {
    const entry = served.get(key);
    if (!entry) {
      if (records.length > 0) return `the fixtures of ${key}: the contract no longer keeps this resource`;
      continue;
    }
    for (const [index, { record }] of records.entries()) {
      await step();
      const reason = recordProblem(entry, record, `[${index}]`);
      if (reason !== undefined) return `fixture entry ${index} of ${key}: ${reason}`;
    }
  }
  return undefined;
}
