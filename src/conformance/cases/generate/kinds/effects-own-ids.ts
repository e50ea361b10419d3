import { mapLeaves } from '../../../../contract/map-leaves.js';
import type { Scenario, Step } from '../../scenario.js';
import { freshId } from '../own-records.js';
import type { Context } from './effects-context.js';

/**
 * The ids the case's own records were made at by a PUT of the run's choosing (rule 11), drawn again for each case
 * wherever the case sends or expects them: cases run side by side, and two sharing an id would write one record
 * (a case deleting its bucket would take another case's objects with it).
 */
export function ownPathIdsPerCase(ctx: Context, scenario: Scenario): Scenario {
  if (ctx.own.drawn.length === 0) return scenario;
  const drawn = new Map<unknown, unknown>();
  for (const { value, schema } of ctx.own.drawn) {
    const fresh = freshId(schema, ctx.random);
    drawn.set(value, String(fresh));
    // A numeric id goes in a body as a number.
    if (typeof fresh === 'number') drawn.set(Number(value), fresh);
  }
  const swap = <T>(value: T): T => mapLeaves(value, (leaf) => (drawn.has(leaf) ? drawn.get(leaf) : leaf)) as T;
  return {
    ...scenario,
    steps: scenario.steps.map(
      (step): Step => ({
        ...step,
        path: swap(step.path),
        body: swap(step.body),
        query: swap(step.query),
        expect: swap(step.expect),
      }),
    ),
  };
}
