import type { MockResponse } from '../handler.js';
import type { MockContext } from '../mock-context.js';
import type { RequestState } from '../request-state.js';

/**
 * One step of the request path: undefined to go on to the next stage, or the answer. A stage refuses by throwing
 * an AppError (the request handler turns it into an Error body); only a stage that waits for I/O returns a promise.
 */
export type Stage = (state: RequestState, mock: MockContext) => StageOutcome | Promise<StageOutcome>;

export type StageOutcome = MockResponse | undefined;
