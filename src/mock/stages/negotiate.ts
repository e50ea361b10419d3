import type { Operation } from '../../contract/operation.js';
import { acceptsAny } from '../accepts-any.js';
import { mockError } from '../error-codes.js';
import type { Stage } from './stage.js';

/**
 * Accept, for every operation alike (RFC 9110 §12.5.1 lets a server honour it with a 406 or disregard it; Prism
 * honours it, so the mock does for the operations it answers itself too). Only a success is negotiated: an Error
 * body is JSON whatever Accept says (a Prefer: code=404 answers before this stage), and the check comes before the
 * handler, so a refused createPet stores nothing.
 */
export const negotiate: Stage = (state) => {
  const accept = state.req.headers.accept;
  if (accept === undefined) return undefined;
  const operation = state.operation!;
  const produced = successMediaTypes(operation);
  if (produced.length === 0 || acceptsAny(accept, produced)) return undefined;
  throw mockError(
    'not_acceptable',
    `header.accept: ${accept.slice(0, 100)} allows none of the media types ${operation.operationId} answers in (${produced.join(', ')})`,
  );
};

const producedBy = new WeakMap<Operation, readonly string[]>();

function successMediaTypes(operation: Operation): readonly string[] {
  let types = producedBy.get(operation);
  if (types === undefined) {
    types = [
      ...new Set(operation.responses.filter((r) => r.code.startsWith('2')).flatMap((r) => r.contents.map((c) => c.mediaType))),
    ];
    producedBy.set(operation, types);
  }
  return types;
}
