import { documentsEntityTag, notModifiedPromise } from '../../../../contract/conditional/conditional-requests.js';
import type { Scenario } from '../../scenario.js';
import { successStatuses } from '../expected-statuses.js';
import { makeCase, type StepSpec } from '../make-case.js';
import { pathParams } from '../own-records.js';
import { updatesOf } from './conditional-updates.js';
import type { Context } from './effects-context.js';

const NO_TAG = 'the read of the record carried no ETag: nothing to send in If-None-Match';

/**
 * Conditional reads of the case's own record (RFC 9110 §13.1.2): where the get promises 304, If-None-Match with the
 * tag just read is answered 304 (not-modified); where it documents an ETag, a write that changed the record changes
 * it, and the tag it had no longer gives a 304 (etag-changes).
 */
export function conditionalReadCases(ctx: Context, kind: string): Scenario[] {
  if (!documentsEntityTag(ctx.get)) return [];
  const promise = notModifiedPromise(ctx.get);
  const params = pathParams(ctx.get, ctx.own.values);
  const tagged: StepSpec = { operation: ctx.get, params, expect: { status: ['2XX'] }, capture: 'tagged' };
  const cases: Scenario[] = [];
  if (promise)
    cases.push(
      makeCase({
        kind,
        id: `${ctx.get.operationId}/not-modified`,
        name: `${ctx.get.operationId} with If-None-Match naming the record's tag is answered 304`,
        description: `Given a record the case created and read with its ETag, when ${ctx.get.operationId} is sent again with If-None-Match naming that tag, then the answer is 304 Not Modified with the ETag and no content${promise.documented ? '' : ' (or a 200: the contract documents the If-None-Match parameter but no 304)'} (not-modified, no-content-after-headers).`,
        steps: [
          ...ctx.own.steps,
          tagged,
          {
            operation: ctx.get,
            params,
            headers: { 'if-none-match': '{{tagged.headers.etag}}' },
            raw: true,
            unlessMissing: NO_TAG,
            ...(promise.documented
              ? {}
              : { observe: `${ctx.get.operationId} documents If-None-Match but no 304: a 200 is HTTP's choice` }),
            expect: { conditional: { check: 'not-modified', documented: promise.documented } },
          },
        ],
      }),
    );
  const update = updatesOf(ctx)[0];
  if (update)
    cases.push(
      makeCase({
        kind,
        id: `${update.write.operationId}/etag-changes`,
        name: `${update.write.operationId} changes the record's ETag`,
        description: `Given a record the case created and read with its ETag, when ${update.write.operationId} changes a field, then ${ctx.get.operationId}${promise ? ' with If-None-Match naming the old tag' : ''} answers the record with another ETag${promise ? ', not 304' : ''} (etag-changes).`,
        steps: [
          ...ctx.own.steps,
          tagged,
          {
            operation: update.write,
            params: pathParams(update.write, ctx.own.values),
            body: update.body,
            expect: { status: successStatuses(update.write) },
            capture: 'written',
          },
          {
            operation: ctx.get,
            params,
            ...(promise ? { headers: { 'if-none-match': '{{tagged.headers.etag}}' } } : {}),
            unlessMissing: NO_TAG,
            expect: {
              conditional: { check: 'etag-changes', was: '{{tagged.headers.etag}}', writeStatus: '{{written.status}}' },
            },
          },
        ],
      }),
    );
  return cases;
}
