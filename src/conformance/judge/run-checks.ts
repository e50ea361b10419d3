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
  for (const check of applying(checks, input)) {
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

/** The checks that judge this exchange: an observed answer of an undocumented status has no schema to hold it to. */
function applying(checks: readonly Check[], input: CheckInput): Check[] {
  const status = input.exchange.response?.status;
  const documented = status !== undefined && findResponse(input.operation, status) !== undefined;
  return checks.filter((c) => !input.observing || c.observed === 'applies' || (c.observed === 'documented' && documented));
}

/**
 * The checks that found nothing in this exchange but could not have seen what they check, with why: each is
 * reported "not verified", never counted a pass. Run after runChecks (a check's unverified may read what its
 * check remembered).
 */
export function unverifiedChecks(checks: readonly Check[], input: CheckInput, problems: readonly CheckProblem[]): string[] {
  const found = new Set(problems.map((p) => p.check.id));
  return applying(checks, input).flatMap((check) => {
    const reason = found.has(check.id) ? undefined : check.unverified?.(input);
    return reason === undefined ? [] : [`not verified (${check.id}): ${reason}`];
  });
}
