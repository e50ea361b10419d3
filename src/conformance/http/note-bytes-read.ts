import type { Socket } from 'node:net';
import type { buildConnector } from 'undici';

/**
 * Connections whose errors say how much the connection had read before them. undici gives a request the socket's
 * own error (ECONNRESET, EPIPE) when the target resets a kept-alive connection as the request goes out, and that
 * error does not tell a connection that had carried answers (a close racing the request: send it again) from a
 * fresh one (the target refused this request: a finding). Its own "other side closed" error carries the count.
 */
export function noteBytesRead(connect: buildConnector.connector): buildConnector.connector {
  return (options, callback) =>
    connect(options, (error, socket) => {
      if (error || !socket) return callback(error as Error, null);
      (socket as Socket).prependListener('error', (socketError: unknown) => {
        if (socketError !== null && typeof socketError === 'object' && !Object.hasOwn(socketError, BYTES_READ)) {
          Object.defineProperty(socketError, BYTES_READ, { value: (socket as Socket).bytesRead });
        }
      });
      return callback(null, socket);
    });
}

/** What a connection had read when this error ended it; undefined for an error that did not come from one. */
export function bytesReadBefore(error: unknown): number | undefined {
  if (error === null || typeof error !== 'object') return undefined;
  const noted = (error as Record<string, unknown>)[BYTES_READ];
  if (typeof noted === 'number') return noted;
  return (error as { socket?: { bytesRead?: number } }).socket?.bytesRead;
}

const BYTES_READ = 'conformanceBytesRead';
