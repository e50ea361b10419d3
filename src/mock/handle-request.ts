import type { IncomingMessage, ServerResponse } from 'node:http';
import { isClosing } from './connection/closing-connection.js';
import { errorResponse } from './error-response.js';
import { setInFlight } from './connection/in-flight.js';
import type { MockContext } from './mock-context.js';
import { recordExchange } from './admin/record-exchange.js';
import { RequestState } from './request-state.js';
import { runStages } from './run-stages.js';
import { sendAnswer } from './connection/send-answer.js';

/** Node's 'request' (and 'checkExpectation') listener: the stages, the one error boundary, then send. */
export function handleRequest(mock: MockContext, req: IncomingMessage, res: ServerResponse): void {
  const state = new RequestState(req, res, performance.now());
  // Behind an answer that ends the connection: not acted on (no pet is made), recorded as sent nothing, after the
  // answers before it (they go out at the end of this turn).
  if (isClosing(req.socket)) {
    setImmediate(recordExchange, mock, state, undefined);
    return;
  }
  setInFlight(req.socket, state);
  let answer: ReturnType<typeof runStages>;
  try {
    answer = runStages(state, mock);
  } catch (error) {
    answer = errorResponse(error, mock, state);
  }
  if (!(answer instanceof Promise)) sendAnswer(state, mock, answer);
  else
    answer.then(
      (answered) => sendAnswer(state, mock, answered),
      (error: unknown) => sendAnswer(state, mock, errorResponse(error, mock, state)),
    );
}
