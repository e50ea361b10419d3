import type { Duplex } from 'node:stream';
import { type ClientError, clientErrorResponse, type Deadlines, writeRawResponse } from './client-error-response.js';
import { inFlight } from './in-flight.js';
import type { MockContext } from '../mock-context.js';
import { recordUnparsed } from '../admin/record-exchange.js';
import { writeAnswer } from './send-answer.js';

/**
 * Node's 'clientError': its own parser errors and timeouts (a bad request line, Content-Length or chunk, headers
 * too large or too slow) would otherwise get a bare status line with no body and no log line.
 */
export function answerClientError(mock: MockContext, deadlines: Deadlines, error: ClientError, socket: Duplex): void {
  // The client is gone: nobody to answer.
  if (error.code === 'ECONNRESET' || !socket.writable) {
    socket.destroy();
    return;
  }
  // Bytes after a request that asked to close the connection (Connection: close): RFC 9112 §9.6, they are not
  // read, and not answered; Node closes the connection after that request's answer.
  if (error.code === 'HPE_CLOSED_CONNECTION') return;
  const response = clientErrorResponse(error, deadlines);
  const last = inFlight(socket);
  // A request whose body was cut short is answered through its own response, so it is logged as itself.
  if (last && !last.res.headersSent && !last.req.complete) {
    last.operation = undefined;
    writeAnswer(last, mock, response);
    return;
  }
  // The error is a later request's (pipelined): every earlier request gets its own answer first, in order, and is
  // logged first.
  const answer = () => {
    writeRawResponse(socket, response);
    recordUnparsed(mock, response, error.code);
  };
  if (last && !last.res.writableFinished) last.res.once('finish', answer);
  else answer();
}
