import { readRequest } from '../connection/read-request.js';
import { CONTROLS, markNotApplied, notApplied } from '../prefer/note-applied.js';
import type { Stage } from './stage.js';

/** Parameters and body against the operation's schemas. Prefer can make a valid request fail, never an invalid one succeed. */
export const validate: Stage = (state) => {
  const { preferences } = state;
  for (const token of preferences.unknown) markNotApplied(state, `${token}: not a preference the mock knows or a repeated one`);
  try {
    state.input = readRequest(state.operation!, state.pathParams, state.parsedQuery, state.req.headers, state.requestBody ?? '');
  } catch (error) {
    notApplied(state, CONTROLS, 'the request was refused before Prefer applies');
    throw error;
  }
  return undefined;
};
