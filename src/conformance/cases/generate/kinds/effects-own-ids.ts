import { mapLeaves } from '../../../../contract/map-leaves.js';
import type { Scenario, Step } from '../../scenario.js';
import { freeValue, freshId, heldId } from '../own-records.js';
import type { Context } from './effects-context.js';

/**
 * The ids the case's own records were made at by a PUT of the run's choosing (rule 11), drawn again for each case
 * wherever the case sends or expects them: cases run side by side, and two sharing an id would write one record
 * (a case deleting its bucket would take another case's objects with it). So are the values of the path parameters
 * no record names (own-records.ts freeValues), so that what a case lists under them is its own records alone.
 */
export function ownPathIdsPerCase(ctx: Context, scenario: Scenario): Scenario {
  if (ctx.own.drawn.length === 0 && ctx.own.free.length === 0) return scenario;
  // A path carries the id as text; a body, a query and an expected record as the record holds it (a number where
  // the parameter is one), whichever way the case wrote it.
  const inPath = new Map<unknown, unknown>();
  const held = new Map<unknown, unknown>();
  const again = [
    ...ctx.own.drawn.map((id) => ({ ...id, fresh: String(freshId(id.schema, ctx.random)) })),
    ...ctx.own.free.map((id) => ({ ...id, fresh: freeValue(id.schema, ctx.random) })),
  ];
  for (const { value, schema, fresh } of again) {
    inPath.set(value, fresh);
    held.set(value, heldId(schema, fresh));
    held.set(heldId(schema, value), heldId(schema, fresh));
  }
  const swap =
    (drawn: ReadonlyMap<unknown, unknown>) =>
    <T>(value: T): T =>
      mapLeaves(value, (leaf) => (drawn.has(leaf) ? drawn.get(leaf) : leaf)) as T;
  const [path, rest] = [swap(inPath), swap(held)];
  return {
    ...scenario,
    steps: scenario.steps.map(
      (step): Step => ({
        ...step,
        path: path(step.path),
        body: rest(step.body),
        query: rest(step.query),
        expect: rest(step.expect),
      }),
    ),
  };
}
