import { isAppError } from '../../contract/app-error.js';
import { statusOf } from '../error-codes.js';
import { inDocumentedType } from '../documented-media-type.js';
import type { MockResponse } from '../handler.js';
import { markApplied, notApplied } from '../prefer/note-applied.js';
import { notModified } from '../conditional/not-modified.js';
import { withRequiredHeaders } from '../required-headers.js';
import type { Stage } from './stage.js';

/**
 * The operation's generic store handler, when it has one (the rest go on), with the headers its response
 * requires (required-headers.ts), and a read's 304 where its If-None-Match names the record's tag (conditional/). A success asked with Prefer is its
 * real answer, so a created record is stored and a fetched one is the stored one: code= is applied only if that is
 * the status the store gave.
 */
export const answerFromStore: Stage = (state, mock) => {
  const operation = state.operation!;
  const generic = mock.resourceHandlers.get(operation.operationId);
  if (!generic) return undefined;
  const { handler, writes } = generic;
  const { code, example, dynamic } = state.preferences;
  // The message is made only for a request that asked: most ask for none of these.
  if (example !== undefined || dynamic !== undefined) {
    notApplied(state, ANSWERED_BY_PRISM, `${operation.operationId} is answered from the store`);
  }
  const { session } = state;
  // A session's store is made by the first write to succeed in it: a read or a refused create makes none, nor
  // takes one of --max-sessions' places.
  const fresh = writes && session !== undefined && mock.sessions.peekResources(session) === undefined;
  const answer = () => {
    try {
      const answered = withRequiredHeaders(
        operation,
        inDocumentedType(operation, handler(state.input!, mock.sessions.contextFor(session, !writes))),
      );
      return writes ? answered : notModified(operation, state.req.headers['if-none-match'], answered);
    } catch (error) {
      // A refused write (store_full) made no session: its place and its memory are given back.
      if (fresh) mock.sessions.reset(session);
      throw error;
    }
  };
  if (code === undefined) return answer();
  let answered: MockResponse;
  try {
    answered = answer();
  } catch (error) {
    notApplied(
      state,
      ['code'],
      `${operation.operationId} answered ${isAppError(error) ? `${statusOf(error.code)} ${error.code}` : 'an error'} from the store`,
    );
    throw error;
  }
  if (answered.status === code) markApplied(state, `code=${code}`);
  else notApplied(state, ['code'], `${operation.operationId} answered ${answered.status} from the store`);
  return answered;
};

// What only Prism can do: a named example of the contract, a body made from the schema.
const ANSWERED_BY_PRISM = ['example', 'dynamic'] as const;
