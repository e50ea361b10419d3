import type { HttpClient } from './create-http-client.js';
import { observeClient } from './observe-client.js';
import type { ScenarioResult, TargetGone } from '../run-result.js';

// How connections fail once a target has gone away: nothing listens any more (refused), or what was open is
// reset or closed under the request.
const GONE: Readonly<Record<string, 'refused' | 'reset'>> = {
  ECONNREFUSED: 'refused',
  ECONNRESET: 'reset',
  EPIPE: 'reset',
  UND_ERR_SOCKET: 'reset',
};

export interface TargetWatch {
  /** The run's client for one case: what comes back to it is watched under the case's id. */
  clientFor(caseId: string): HttpClient;
  /** Once the cases have run: whether the target stopped answering at some point and never answered again. */
  gone(results: readonly ScenarioResult[]): TargetGone | undefined;
}

interface Failure {
  readonly at: number;
  readonly caseId: string;
  readonly message: string;
  readonly refused: boolean;
}

/**
 * Tells a target that went away during the run (a crashed pod, a restart that never came back) from a target
 * that failed cases: every failed connection since the last answer is remembered, and any answer forgets them.
 * A refused connection means nothing listens any more; resets alone take two requests, so that one case whose
 * request the target cuts off (its body too large, say) is not mistaken for the end of the target.
 */
export function watchTarget(client: HttpClient, startedAt: number): TargetWatch {
  let since: Failure[] = [];
  return {
    clientFor: (caseId) =>
      observeClient(client, (exchange) => {
        const { response, error } = exchange;
        if (response !== undefined || error?.status !== undefined) since = [];
        else if (error?.kind === 'connection' && error.code !== undefined && GONE[error.code] !== undefined) {
          since.push({ at: Date.now(), caseId, message: error.message, refused: GONE[error.code] === 'refused' });
        }
      }),
    gone: (results) => {
      const [first] = since;
      if (first === undefined || (since.length < 2 && !first.refused)) return undefined;
      const cut = new Set(since.map((f) => f.caseId));
      // A case the target's end cut short is the run's error, unless the target had already answered it wrongly.
      const cases = results.filter((r) => cut.has(r.id) && !r.findings.some((f) => f.blocking && f.response !== undefined));
      const ids = new Set(cases.map((r) => r.id));
      return {
        at: new Date(first.at).toISOString(),
        afterMs: first.at - startedAt,
        failure: first.message,
        cases: [...ids],
        failedBefore: results.filter((r) => r.outcome === 'failed' && !ids.has(r.id)).length,
      };
    },
  };
}
