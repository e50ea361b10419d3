import type { CheckProblem } from './run-checks.js';
import type { Severity } from './severity.js';

export interface RootProblem extends CheckProblem {
  readonly consequences: readonly { readonly checkId: string; readonly severity: Severity; readonly title: string }[];
}

/**
 * Which findings on one exchange follow from another: no answer explains everything; a served request without
 * valid credentials, a server error or a wrong status explain the status, body and header findings after them.
 * One root per exchange, so a person reads the cause once.
 */
const EXPLAINS: Readonly<Record<string, readonly string[]>> = {
  answered: ['*'],
  'auth-enforced': [
    'status-expected',
    'status-documented',
    'body-expected',
    'headers-expected',
    'body-schema',
    'id-assigned-once',
  ],
  'no-server-error': [
    'status-expected',
    'status-documented',
    'body-expected',
    'headers-expected',
    'body-schema',
    'content-type-json',
  ],
  'status-expected': ['status-documented', 'body-expected', 'headers-expected', 'headers-documented'],
  'status-documented': ['body-expected', 'headers-expected'],
  'body-schema': ['error-status-matches', 'body-expected', 'content-type-json'],
};

const PRIORITY = Object.keys(EXPLAINS);
const rank = (problem: CheckProblem) => {
  const index = PRIORITY.indexOf(problem.check.id);
  return index === -1 ? PRIORITY.length : index;
};

/** The problems of one exchange with the consequences folded under their root, roots first in EXPLAINS order. */
export function foldConsequences(problems: readonly CheckProblem[]): RootProblem[] {
  if (problems.length === 0) return [];
  const folded = new Set<CheckProblem>();
  const roots: RootProblem[] = [];
  for (const root of [...problems].sort((a, b) => rank(a) - rank(b))) {
    if (folded.has(root)) continue;
    const explained = EXPLAINS[root.check.id] ?? [];
    const consequences = problems.filter(
      (p) => p !== root && !folded.has(p) && (explained.includes('*') || explained.includes(p.check.id)),
    );
    for (const consequence of consequences) folded.add(consequence);
    roots.push({
      ...root,
      consequences: consequences.map((c) => ({ checkId: c.check.id, severity: c.check.severity, title: c.title })),
    });
  }
  return roots;
}
