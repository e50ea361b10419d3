import type { Operation } from '../../../../contract/operation.js';
import { requestSchema } from '../../../../contract/resources/representation.js';
import { operationOf } from '../../../../contract/resources/resource-roles.js';
import type { Step } from '../../scenario.js';
import { type Context, namedAsItsPath } from './effects-context.js';
import { changed } from './effects.js';

/** A write that changes the case's own record, and the body it sends: a PUT of every field, or a one-field PATCH. */
export interface Update {
  readonly write: Operation;
  readonly body: Step['body'];
}

/** The writes of the resource that change a field of its record (PUT, then PATCH), each with its body; DELETE too. */
export function updatesOf(ctx: Context): Update[] {
  const updates: Update[] = [];
  const replace = operationOf(ctx.resource, 'replace', ctx.contract.byId);
  if (replace) {
    const value = namedAsItsPath(ctx, replace, { ...ctx.own.body, ...changed(requestSchema(replace), ctx) });
    updates.push({ write: replace, body: { kind: 'json', value } });
  }
  const patch = operationOf(ctx.resource, 'merge-patch', ctx.contract.byId);
  const change = patch ? changed(requestSchema(patch), ctx) : {};
  if (patch && Object.keys(change).length > 0) updates.push({ write: patch, body: { kind: 'json', value: change } });
  return updates;
}

/** Every write of the record: its updates, and its DELETE (no body). */
export function writesOf(ctx: Context): Update[] {
  const remove = operationOf(ctx.resource, 'delete', ctx.contract.byId);
  return [...updatesOf(ctx), ...(remove ? [{ write: remove, body: undefined }] : [])];
}
