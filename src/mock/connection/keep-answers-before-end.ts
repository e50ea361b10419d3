import type { Server } from 'node:http';
import type { Socket } from 'node:net';
import { hasQueuedAnswer } from './send-answer.js';

/**
 * A client that ends its side (a FIN) is taken as gone, as Node and nginx take it: what it asked for and was not yet
 * answered is not sent (the journal says so). Answers already made are another matter: they wait only for the end of
 * the turn (send-answer.ts), and a FIN read in the same turn (a 64 KiB read, then the end, in one go) must not lose
 * them. For that connection alone, Node keeps its side open until they are out: httpAllowHalfOpen, which Node reads
 * only while it handles the 'end', so it is set for that moment and cleared at once.
 */
export function keepAnswersMadeBeforeEnd(server: Server): void {
  const halfOpen = server as Server & { httpAllowHalfOpen: boolean };
  const clear = () => {
    halfOpen.httpAllowHalfOpen = false;
  };
  server.on('connection', (socket: Socket) => {
    // Before Node's own 'end' listener, which was added when the connection came in.
    socket.prependListener('end', () => {
      if (!hasQueuedAnswer(socket)) return;
      halfOpen.httpAllowHalfOpen = true;
      process.nextTick(clear);
    });
  });
}
