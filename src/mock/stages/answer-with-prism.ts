import { mockError } from '../error-codes.js';
import { exampleNames, mockWithPrism } from '../prism-adapter.js';
import { markApplied, markNotApplied } from '../prefer/note-applied.js';
import { withRequiredHeaders } from '../required-headers.js';
import { withValidBody } from '../valid-answer-body.js';
import type { Stage } from './stage.js';

/**
 * Prism answers every operation without a stateful handler, from the contract's examples and schemas, with its own
 * Prefer vocabulary: code=, example= and dynamic=. The request is already authenticated and validated.
 */
export const answerWithPrism: Stage = (state) => {
  const operation = state.operation!;
  const { code, example, dynamic } = state.preferences;
  if (code !== undefined) markApplied(state, `code=${code}`);
  if (example !== undefined) {
    const names = exampleNames(operation, code);
    // Prism would answer 404, as if the path were unknown.
    if (!names.includes(example)) {
      throw mockError(
        'invalid_parameter',
        `header.prefer: example=${example} is not an example of ${operation.operationId}'s ${code ?? 'success'} answer (examples: ${names.join(', ') || 'none'})`,
      );
    }
    markApplied(state, `example=${example}`);
  }
  // As in Prism (NegotiatorHelpers.negotiateByPartialOptionsAndHttpContent): a named example wins over dynamic.
  if (dynamic === true && example !== undefined) markNotApplied(state, `dynamic=true: example=${example} answers instead`);
  else if (dynamic !== undefined) markApplied(state, `dynamic=${dynamic}`);
  const { req } = state;
  const answer = mockWithPrism(
    operation,
    { method: operation.method, path: state.relative, query: state.parsedQuery, headers: req.headers, body: state.input!.body },
    { code, exampleKey: example, dynamic: example === undefined ? dynamic : false },
  );
  // An example asked by name is answered as the contract writes it; otherwise the answer keeps to the contract.
  return example === undefined ? answer.then((a) => withRequiredHeaders(operation, withValidBody(operation, a))) : answer;
};
