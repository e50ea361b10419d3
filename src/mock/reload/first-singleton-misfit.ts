import { describeIssues } from '../../contract/compile-schema.js';
import { parseJson } from '../../contract/lossless-json.js';
import type { SingletonPlan } from '../resource/singleton-plans.js';
import type { HeldSingleton } from '../store/singleton-records.js';

/**
 * The first single record written (rule 12) that a reloaded contract refuses: one of a key it no longer keeps, or
 * one its GET's schema no longer passes; undefined when all fit. As with records (firstMisfit), a contract that
 * refuses one is not adopted: it would be served as it is, and set aside by the next start.
 */
export function firstSingletonMisfit(
  plans: ReadonlyMap<string, SingletonPlan>,
  held: Iterable<readonly [string, HeldSingleton]>,
): string | undefined {
  for (const [store, { key, scope, json }] of held) {
    const where = `${store === '' ? 'the default store' : `session ${JSON.stringify(store)}`}${scope === undefined ? '' : ` under ${scope}`}`;
    const plan = plans.get(key);
    if (!plan) return `the single record ${key} in ${where}: the contract no longer keeps it`;
    const issues = plan.validate(parseJson(json), '');
    if (issues.length > 0) return `the single record ${key} in ${where}: ${describeIssues(issues).replace(/^\./, '')}`;
  }
  return undefined;
}
