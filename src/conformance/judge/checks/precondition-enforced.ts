import { documentsStatus } from '../../../contract/conditional/conditional-requests.js';
import type { Check } from './check.js';

/**
 * A write to the case's own record whose If-Match names a tag the record never had is refused with 412 where the
 * contract documents it (or the If-Match parameter): a server that applies it anyway loses the other writer's
 * change the precondition was there to keep (the lost update, RFC 9110 §13.1.1). The refusal leaves the record as
 * it was (refusal-leaves-no-trace, judged by the read after it). With the tag the record has, the write is applied.
 */
export const preconditionEnforced: Check = {
  id: 'precondition-enforced',
  severity: 'high',
  clause:
    'RFC 9110 §13.1.1, §15.5.13: a write whose If-Match names no current entity tag of the record is refused with 412 Precondition Failed, one naming its current tag is applied, and where it is required (428 documented) one without it is refused with 428',
  observed: 'skipped',
  check: ({ expect, exchange, operation }) => {
    const wanted = expect?.conditional;
    const response = exchange.response;
    if (wanted?.check !== 'precondition-enforced' || !response) return undefined;
    const tag = String(exchange.request.headers['if-match'] ?? '');
    if (weakCurrent(wanted.sent, tag)) return undefined;
    const due = DUE[wanted.sent];
    const success = response.status >= 200 && response.status < 300;
    if (due === 'success' ? success : response.status === due) return undefined;
    // HTTP forbids applying the write; the 412 is only its suggested answer (RFC 9110 §13.1.1: the server "MAY"
    // answer 412). Where the contract names the If-Match parameter but not the 412, a refusal it documents (a 409)
    // keeps the promise too.
    if (
      wanted.sent === 'stale' &&
      !documentsStatus(operation, 412) &&
      response.status >= 400 &&
      response.status < 500 &&
      documentsStatus(operation, response.status)
    )
      return undefined;
    return {
      title: `precondition-enforced: a write ${SENT[wanted.sent](tag)} answered ${response.status}`,
      received: `HTTP ${response.status}${success ? ': the write was applied over a precondition that fails' : ''}`,
      documented: due === 'success' ? 'the documented 2xx: the precondition holds' : `${due} ${REASON[due]}`,
    };
  },
  unverified: ({ expect, exchange }) => {
    const wanted = expect?.conditional;
    const tag = String(exchange.request.headers['if-match'] ?? '');
    return wanted?.check === 'precondition-enforced' && weakCurrent(wanted.sent, tag)
      ? `the record's ETag ${tag} is weak: If-Match compares strongly and never matches it (RFC 9110 §13.1.1), so whether a current tag is taken is not verified`
      : undefined;
  },
};

// RFC 9110 §13.1.1: If-Match compares strongly, so a weak tag never matches, and a 412 to it is right.
function weakCurrent(sent: keyof typeof DUE, tag: string): boolean {
  return sent === 'current' && tag.startsWith('W/');
}

const DUE = { stale: 412, current: 'success', none: 428 } as const;

const REASON = { 412: 'Precondition Failed', 428: 'Precondition Required (RFC 6585 §3), which the contract documents' };

const SENT: Readonly<Record<keyof typeof DUE, (tag: string) => string>> = {
  stale: (tag) => `with If-Match ${tag}, a tag the record never had,`,
  current: (tag) => `with If-Match ${tag}, the record's current tag,`,
  none: () => 'without the If-Match the contract requires',
};
