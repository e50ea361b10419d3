import type { Duplex } from 'node:stream';

// On the socket itself, as in-flight.ts keeps its request there.
const CLOSING = Symbol('petstore-mock closing connection');

interface Carrier {
  [CLOSING]?: true;
}

/**
 * An answer decided for this connection ends it: a fault (reset, empty, hang), or a 413, 417 or 505 sent with
 * Connection: close. RFC 9112 §9.6: a server that closes a connection must not act on the requests that follow on
 * it, though Node's parser still hands them over when they came in the same packet.
 */
export function markClosing(socket: Duplex): void {
  (socket as Carrier)[CLOSING] = true;
}

export function isClosing(socket: Duplex): boolean {
  return (socket as Carrier)[CLOSING] === true;
}
