import type { Operation } from '../../../../contract/operation.js';
import { documentsEntityTag, enforcesIfMatch } from '../../../../contract/conditional/conditional-requests.js';
import type { Scenario } from '../../scenario.js';
import { successStatuses } from '../expected-statuses.js';
import { jsonMediaType, makeCase, type StepSpec } from '../make-case.js';
import { pathParams } from '../own-records.js';
import { type Update, writesOf } from './conditional-updates.js';
import { type Context, kept, ownId, readStep } from './effects-context.js';

// An entity tag no server made: the run's id keeps it apart from any real one (RFC 9110 §8.8.3, a quoted string).
const STALE_TAG = '"conformance-stale-{{run.id}}"';

/**
 * Conditional writes of the case's own record (RFC 9110 §13.1.1), where the write documents 412 or If-Match: one
 * naming a tag the record never had is refused with 412 (precondition-enforced) and leaves the record as it was
 * (refusal-leaves-no-trace); where the get documents an ETag, one naming the tag it answers is applied.
 */
export function conditionalWriteCases(ctx: Context, kind: string): Scenario[] {
  return writesOf(ctx)
    .filter(({ write }) => enforcesIfMatch(write))
    .map((update) => writeCase(ctx, kind, update));
}

function writeCase(ctx: Context, kind: string, { write, body }: Update): Scenario {
  const params = pathParams(write, ctx.own.values);
  const sent = (tag: string | undefined): StepSpec => ({
    operation: write,
    params,
    body,
    headers: { ...jsonMediaType({ operation: write, body }), 'if-match': tag },
  });
  const tagged = documentsEntityTag(ctx.get);
  const name = write.operationId;
  return makeCase({
    kind,
    id: `${name}/precondition-enforced`,
    name: `${name} with If-Match naming a tag the record never had is refused with 412`,
    description: `Given a record the case created, when ${name} is sent${requiresIfMatch(write) ? ' without If-Match, which it requires, it is refused with 428, and' : ''} with If-Match ${STALE_TAG.replace('{{run.id}}', '<run>')}, then it is refused with 412 (precondition-enforced) and ${ctx.get.operationId} shows the record as created (refusal-leaves-no-trace)${tagged ? `; sent with the ETag ${ctx.get.operationId} answers, it is applied` : ''}.`,
    steps: [
      ...ctx.own.steps,
      ...(requiresIfMatch(write) ? [{ ...sent(undefined), expect: REQUIRED }] : []),
      { ...sent(STALE_TAG), expect: { conditional: { check: 'precondition-enforced', sent: 'stale' } } },
      readStep(ctx, {
        check: 'refusal-leaves-no-trace',
        status: ['2XX'],
        body: { ...kept(ctx, ctx.own.body, false), [ctx.id]: ownId(ctx) },
      }),
      ...(tagged
        ? [
            { operation: ctx.get, params: pathParams(ctx.get, ctx.own.values), setup: true, capture: 'current' },
            {
              ...sent('{{current.headers.etag}}'),
              unlessMissing: 'the read of the record carried no ETag: nothing to send in If-Match',
              expect: { status: successStatuses(write), conditional: { check: 'precondition-enforced', sent: 'current' } },
            } satisfies StepSpec,
          ]
        : []),
    ],
  });
}

const REQUIRED = { conditional: { check: 'precondition-enforced', sent: 'none' } } as const;

// RFC 6585 §3: the 428 is a promise only where the contract requires If-Match and documents the 428.
function requiresIfMatch(write: Operation): boolean {
  const parameter = write.parameters.find((p) => p.in === 'header' && p.name === 'if-match');
  return parameter?.required === true && write.responses.some((r) => r.code === '428');
}
