import { findResponse } from '../contract/find-response.js';
import type { Check, CheckInput, Problem } from './checks/check.js';

export interface CheckProblem extends Problem {
  readonly check: Pick<Check, 'id' | 'severity' | 'clause'>;
}

const CRASHED: Pick<Check, 'id' | 'severity' | 'clause'> = {
  id: 'check-error',
  severity: 'high',
  clause: 'a check that cannot decide is not a pass',
};

/** Runs every check on one exchange. A check that throws is itself a problem; it never stops the run. */
export function runChecks(checks: readonly Check[], input: CheckInput): CheckProblem[] {
  const problems: CheckProblem[] = [];
  const status = input.exchange.response?.status;
  const documented = status !== undefined && findResponse(input.operation, status) !== undefined;
  for (const check of checks) {
    if (input.observing && (check.observed === 'skipped' || (check.observed === 'documented' && !documented))) continue;
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
