import type { RequestInput } from './connection/read-request.js';
import type { ResourceStores } from './store/resource-stores.js';

export interface HandlerContext {
  /** The records of every stateful resource of the contract (src/contract/resources), in this store. */
  readonly resources: ResourceStores;
  /** The base path the contract is served under, e.g. /v1. */
  readonly basePath: string;
}

/** What the mock sends: the body is JSON text already. */
export interface MockResponse {
  readonly status: number;
  readonly body: string;
  readonly headers?: Readonly<Record<string, string>>;
  /**
   * A large body in pieces, sent with backpressure (chunked, no Content-Length) in place of `body`: no one string
   * of it is made.
   */
  readonly chunks?: Iterable<string>;
  /** The stored record's JSON the answer represents: its ETag is made from it (conditional/entity-tag.ts). */
  readonly record?: string;
  /** The Error code of a refusal, for the log line and the journal. */
  readonly errorCode?: string;
}

/** A stateful operation: gets a request already checked against the contract, returns the answer. */
export type Handler = (input: RequestInput, context: HandlerContext) => MockResponse;
