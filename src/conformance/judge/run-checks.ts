import { findResponse } from '../../contract/find-response.js';
import type { Check, CheckInput, Problem } from './checks/check.js';

export interface CheckProblem extends Problem {
  readonly check: Pick<Check, 'id' | 'severity' | 'clause' | 'fileClause'>;
}

const CRASHED: Pick<Check, 'id' | 'severity' | 'clause'> = {
  id: 'check-error',
  severity: 'high',
  clause: 'a check that cannot decide is not a pass',
};

/** Runs every check on one exchange. A check that throws is itself a problem; it never stops the run. */
export function runChecks(checks: readonly Check[], input: CheckInput): CheckProblem[] {
  const problems: CheckProblem[] = [];
  for (const check of applying(checks, input).checks) {
    try {
      const problem = check.check(input);
      if (problem) problems.push({ ...problem, check });
    } catch (error) {
      problems.push({
        check: CRASHED,
        title: `check ${check.id} threw: ${(error as Error)?.message ?? String(error)}`,
        received: 'the exchange below',
        documented: `a verdict from ${check.id}`,
      });
    }
  }
  return problems;
}

/**
 * The checks that found nothing in this exchange but could not have seen what they check, with why: each is
 * reported "not verified", never counted a pass. Run after runChecks (a check's unverified may read what its
 * check remembered).
 */
export function unverifiedChecks(checks: readonly Check[], input: CheckInput, problems: readonly CheckProblem[]): string[] {
  const notes: string[] = [];
  for (const check of applying(checks, input).unverifiable) {
    if (problems.some((p) => p.check.id === check.id)) continue;
    const reason = check.unverified?.(input);
    if (reason !== undefined) notes.push(`not verified (${check.id}): ${reason}`);
  }
  return notes;
}

/** Some checks, in their order, and those of them that can say "not verified". */
interface Applying {
  readonly checks: readonly Check[];
  readonly unverifiable: readonly Check[];
}

interface ByObserving {
  readonly always: Applying;
  /** An observed answer of a documented status, of an undocumented one. */
  readonly documented: Applying;
  readonly undocumented: Applying;
}

// Every exchange of a run is judged by the same list of checks: it is sorted by how each treats an observed answer
// once per list, not filtered again for every exchange (twice, with unverifiedChecks).
const sorted = new WeakMap<readonly Check[], ByObserving>();

/** The checks that judge this exchange: an observed answer of an undocumented status has no schema to hold it to. */
function applying(checks: readonly Check[], input: CheckInput): Applying {
  let known = sorted.get(checks);
  if (known === undefined) {
    const of = (keep: (check: Check) => boolean): Applying => {
      const kept = checks.filter(keep);
      return { checks: kept, unverifiable: kept.filter((check) => check.unverified !== undefined) };
    };
    known = {
      always: of(() => true),
      documented: of((c) => c.observed === 'applies' || c.observed === 'documented'),
      undocumented: of((c) => c.observed === 'applies'),
    };
    sorted.set(checks, known);
  }
  if (!input.observing) return known.always;
  const status = input.exchange.response?.status;
  return status !== undefined && findResponse(input.operation, status) !== undefined ? known.documented : known.undocumented;
}
