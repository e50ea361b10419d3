import type { Operation } from '../../../../contract/operation.js';
import type { StepSpec } from '../make-case.js';
import { createBody, heldId, putAtOwnId } from '../own-records.js';
import { type Context, kept, readStep } from './effects-context.js';

/**
 * A second record of the case's own, made under the same parent just before the case's record: the write that
 * follows names the case's record alone, so the bystander must read back as it was made (others-untouched). A
 * server whose UPDATE lost its WHERE, or whose DELETE takes the record made before, passes every check of the
 * record it was asked to change.
 */
export interface Bystander {
  /** The case's own steps with the bystander's create before the record's own. */
  readonly steps: StepSpec[];
  /** The read of the bystander after the write captured as `write`, judged only when that write took (2xx). */
  readonly read: (write: string) => StepSpec;
}

const CAPTURE = 'bystander';

export function bystander(ctx: Context): Bystander {
  const own = ctx.own.steps[ctx.own.steps.length - 1] as StepSpec;
  const create = own.operation as Operation;
  const parents = ctx.own.values.slice(0, -1);
  // A record made by a PUT at an id of the run's choosing (rule 11) is made at another such id.
  const put = ctx.own.drawn.length > 0 ? putAtOwnId(ctx.model, ctx.resource, create, parents, ctx.random) : undefined;
  const at = put && 'step' in put ? put : undefined;
  const body = at ? at.body : createBody(ctx.model, ctx.resource, create, ctx.random);
  const made: StepSpec = { ...own, ...at?.step, body: { kind: 'json', value: body }, capture: CAPTURE, setup: true };
  const values = [...parents, at ? at.id.value : `{{${CAPTURE}.body.${ctx.id}}}`];
  const id = at ? heldId(at.id.schema, at.id.value) : values[values.length - 1];
  return {
    steps: [...ctx.own.steps.slice(0, -1), made, own],
    read: (write) =>
      readStep(
        ctx,
        {
          check: 'others-untouched',
          status: ['2XX'],
          body: { ...kept(ctx, body, false), [ctx.id]: id },
          onlyAfter: { status: `{{${write}.status}}`, in: ['2XX'] },
        },
        values,
      ),
  };
}
