import type { Contract } from '../../../../contract/load-contract.js';
import type { Operation } from '../../../../contract/operation.js';
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
 * `body` as a write to the case's own record sends it: with the id its path names where the client names ids (a
 * SKU the body's schema holds), else without one (the service's own, never taken from a request).
 */
export function namedAsItsPath(ctx: Context, write: Operation, body: Record<string, unknown>): Record<string, unknown> {
  const { [ctx.id]: _, ...rest } = body;
  return sendsOwnId(ctx.resource, write) ? { ...rest, [ctx.id]: ownId(ctx) } : rest;
}
