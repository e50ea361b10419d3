import type { Duplex } from 'node:stream';
import type { RequestState } from '../request-state.js';

// On the socket itself: a WeakMap entry per request cost a hash-table write for every request a connection carries.
const IN_FLIGHT = Symbol('petstore-mock in-flight request');

interface Carrier {
  [IN_FLIGHT]?: RequestState;
}

/**
 * The last request each connection was given: a parser error or timeout that cuts its body short is answered
 * through it, and a parser error on a later (pipelined) request waits for its answer.
 */
export function inFlight(socket: Duplex): RequestState | undefined {
  return (socket as Carrier)[IN_FLIGHT];
}

export function setInFlight(socket: Duplex, state: RequestState): void {
  (socket as Carrier)[IN_FLIGHT] = state;
}
