import { type IncomingMessage, ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import { handleRequest } from '../handle-request.js';
import { inFlight } from './in-flight.js';
import type { MockContext } from '../mock-context.js';

/**
 * Node's 'connect': a CONNECT request, whose socket Node has handed over (without a listener it destroys it, so the
 * client gets no answer at all). It goes through the stages like any request, which refuse it (readTarget), on a
 * response of its own; then the connection closes, as the parser has let go of it.
 */
export function answerConnect(mock: MockContext, req: IncomingMessage, socket: Duplex): void {
  // A request pipelined before it whose answer is still to go out (answers go at the end of a turn): that first.
  const earlier = inFlight(socket);
  if (earlier && !earlier.res.writableFinished) {
    earlier.res.once('finish', () => answerConnect(mock, req, socket));
    return;
  }
  const res = new ServerResponse(req);
  res.shouldKeepAlive = false;
  try {
    res.assignSocket(socket as never);
  } catch {
    // A pipelined answer still owns the socket: nothing can be written in order.
    socket.destroy();
    return;
  }
  res.once('finish', () => {
    res.detachSocket(socket as never);
    socket.end();
  });
  handleRequest(mock, req, res);
}
