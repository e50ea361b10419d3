import { readBody } from '../connection/read-body.js';
import type { Stage } from './stage.js';

/**
 * The body of an operation that takes one, up to --max-body-bytes: the one stage that waits, so a request without
 * a body (every GET) is answered with no promise on its path.
 */
export const receiveBody: Stage = (state, mock) => {
  if (!state.operation!.requestBody) return undefined;
  return readBody(state.req, state.res, mock.maxBodyBytes).then((text) => {
    state.requestBody = text;
    return undefined;
  });
};
