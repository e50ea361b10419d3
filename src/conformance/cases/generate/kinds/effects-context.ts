import type { Contract } from '../../../../contract/load-contract.js';
import type { JsonSchema, Operation } from '../../../../contract/operation.js';
import { objectShape } from '../../../../contract/resources/object-shape.js';
import type { Resource, ResourceModel } from '../../../../contract/resources/resource.js';
import type { ResourceEffect } from '../../scenario.js';
import type { Random } from '../create-random.js';
import type { StepSpec } from '../make-case.js';
import { type OwnRecord, pathParams, sendsOwnId } from '../own-records.js';

/** What every effects case of one resource starts from: the resource, its get and list, and the case's own record. */
export interface Context {
  readonly resource: Resource;
  readonly model: ResourceModel;
  readonly contract: Contract;
  readonly get: Operation;
  readonly list: Operation | undefined;
  readonly own: OwnRecord;
  readonly id: string;
  readonly random: Random;
}

export function ownId(ctx: Context): string {
  return ctx.own.values[ctx.own.values.length - 1] as string;
}

export function readStep(ctx: Context, effect: ResourceEffect, values = ctx.own.values): StepSpec {
  return { operation: ctx.get, params: pathParams(ctx.get, values), expect: { effect } };
}

/**
 * The case's record read before its write, judged by nothing of its own: a server that keeps what a read answered
 * (a cache the write does not clear) answers the read after the write from it, as the record was.
 */
export function readBefore(ctx: Context): StepSpec {
  return { operation: ctx.get, params: pathParams(ctx.get, ctx.own.values), setup: true };
}

/**
 * `body` as a write to the case's own record sends it: with the id its path names where the client names ids (a
 * SKU the body's schema holds), else without one (the service's own, never taken from a request).
 */
export function namedAsItsPath(ctx: Context, write: Operation, body: Record<string, unknown>): Record<string, unknown> {
  const { [ctx.id]: _, ...rest } = body;
  return sendsOwnId(ctx.resource, write) ? { ...rest, [ctx.id]: ownId(ctx) } : rest;
}

/**
 * The written fields a read must show: not the id (compared apart), not what the server sets (readOnly), not
 * writeOnly (a read never shows it), not instants (a server may reformat them); enums only right after a write
 * that set them (a status may move on after a create: transitions are not in the contract).
 */
export function kept(ctx: Context, body: Record<string, unknown>, withEnums: boolean): Record<string, unknown> {
  return shownFields(ctx.resource.schema, [ctx.id, ...ctx.resource.serverFields], body, withEnums);
}

/** Of `body`, the fields a read of a record of `schema` must show (see kept), none of `skip`. */
export function shownFields(
  schema: JsonSchema | undefined,
  skip: readonly string[],
  body: Record<string, unknown>,
  withEnums: boolean,
): Record<string, unknown> {
  const shown = objectShape(schema)?.properties ?? {};
  return Object.fromEntries(
    Object.entries(body).filter(([name]) => {
      const property = shown[name];
      if (!property || skip.includes(name) || (property as { writeOnly?: boolean }).writeOnly) return false;
      if (property.format === 'date-time' || property.format === 'date' || VOLATILE.test(name)) return false;
      return withEnums || !property.enum;
    }),
  );
}

const VOLATILE = /^(updated_?at|modified_?at|etag|version)$/i;
