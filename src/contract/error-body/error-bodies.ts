import type { Contract } from '../load-contract.js';
import type { MediaSpec, Operation } from '../operation.js';
import { bodyKey, commonErrorMedia, documentedErrorMedia } from './error-media.js';
import { type ErrorBodyShape, shapeErrorBody } from './shape-error-body.js';

/** The contract's error bodies, by operation and status (see shapeErrorBody). */
export interface ErrorBodies {
  /**
   * The shape of the body answering `status` on `operation`: the one the operation documents for it, else the
   * contract's most common error body; undefined where the contract has none, or none that can be made valid.
   */
  shapeFor(operation: Operation, status: number): ErrorBodyShape | undefined;
  /** The contract's most common error body, for `status`: what a path of the API that names no operation gets. */
  common(status: number): ErrorBodyShape | undefined;
}

const made = new WeakMap<Contract, ErrorBodies>();

/**
 * A contract's error bodies, shaped once per contract: for each operation and each of `statuses` now (the first
 * caller's), for any other status the first time it is asked for. A contract replaced (--watch) takes its own along.
 */
export function errorBodiesOf(contract: Contract, statuses: readonly number[]): ErrorBodies {
  let bodies = made.get(contract);
  if (!bodies) {
    bodies = createErrorBodies(contract.operations, statuses);
    made.set(contract, bodies);
  }
  return bodies;
}

function createErrorBodies(operations: readonly Operation[], statuses: readonly number[]): ErrorBodies {
  const usual = commonErrorMedia(operations);
  // Most operations give the same body (the common one, a response by $ref): shaped once per body and status.
  const byBody = new Map<string, ErrorBodyShape | undefined>();
  const shapeOf = (media: MediaSpec, status: number) =>
    cached(byBody, `${status} ${bodyKey(media)}`, () => shapeErrorBody(media, status));
  const byOperation = new Map<Operation, Map<number, ErrorBodyShape | undefined>>();
  // On the request path: two lookups, nothing made.
  const shapeFor = (operation: Operation, status: number) => {
    const known = byOperation.get(operation);
    if (known?.has(status)) return known.get(status);
    const media = documentedErrorMedia(operation, status) ?? usual;
    const shape = media && shapeOf(media, status);
    cached(byOperation, operation, () => new Map()).set(status, shape);
    return shape;
  };
  const common = (status: number) => usual && shapeOf(usual, status);
  for (const status of statuses) {
    common(status);
    for (const operation of operations) shapeFor(operation, status);
  }
  return { shapeFor, common };
}

function cached<K, V>(map: Map<K, V>, key: K, make: () => V): V {
  if (map.has(key)) return map.get(key) as V;
  const value = make();
  map.set(key, value);
  return value;
}
