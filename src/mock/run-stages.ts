import type { MockResponse } from './handler.js';
import type { MockContext } from './mock-context.js';
import type { RequestState } from './request-state.js';
import { answerAdmin } from './stages/answer-admin.js';
import { answerFromStore } from './stages/answer-from-store.js';
import { answerUnreadCreate } from './stages/answer-unread-create.js';
import { answerWithPrism } from './stages/answer-with-prism.js';
import { applyControls } from './stages/apply-controls.js';
import { applyCors } from './stages/apply-cors.js';
import { checkHost } from './stages/check-host.js';
import { checkKey } from './stages/check-key.js';
import { negotiate } from './stages/negotiate.js';
import { readTarget } from './stages/read-target.js';
import { receiveBody } from './stages/receive-body.js';
import { route } from './stages/route.js';
import { selectSession } from './stages/select-session.js';
import type { Stage } from './stages/stage.js';
import { takePreferences } from './stages/take-preferences.js';
import { validate } from './stages/validate.js';

/**
 * The mock's request path, in order, over one RequestState; the first stage that answers ends it, and send
 * (send-answer.ts) writes that answer. The admin endpoints end at answerAdmin: no key, Prefer or contract for them.
 */
export const STAGES: readonly Stage[] = [
  readTarget, // path, query, Host (absolute-form too), Expect
  checkHost, // 403 to a Host that is not the mock's (DNS rebinding), on every path
  applyCors, // CORS headers and preflights; the admin endpoints' peer and Origin checks
  route, // the operation or admin endpoint; 404, 405; HEAD as GET, decided once
  answerAdmin,
  checkKey, // 401
  selectSession, // X-Mock-Session
  takePreferences, // Prefer and runtime rules read, delay chosen
  receiveBody, // size cap; the one stage that waits
  validate, // parameters and body against the contract
  applyControls, // fault=, an error code=
  negotiate, // Accept: 406
  answerFromStore, // the generic store handler by operationId
  answerUnreadCreate, // a create nothing reads back: the contract's answer, no store
  answerWithPrism, // every other operation
];

/**
 * Runs the stages from `from` on, synchronously until one returns a promise: a request without a body (every
 * GET) is answered with no promise made. Throws what a stage throws; the request handler turns it into an answer.
 */
export function runStages(state: RequestState, mock: MockContext, from = 0): MockResponse | Promise<MockResponse> {
  for (let i = from; i < STAGES.length; i++) {
    const outcome = (STAGES[i] as Stage)(state, mock);
    if (outcome === undefined) continue;
    if (outcome instanceof Promise) return outcome.then((answer) => answer ?? runStages(state, mock, i + 1));
    return outcome;
  }
  throw new Error(`no stage answered ${state.req.method} ${state.path}`);
}
