import type { Severity } from './severity.js';
import type { ScenarioResult } from '../run-result.js';

/** One failure that explains several cases: the headline a person reads before any case. */
export interface LikelyCause {
  /** 1-based, most cases first. */
  readonly rank: number;
  readonly operationId: string;
  readonly checkId: string;
  readonly severity: Severity;
  /** The root finding's sentence in the first case that met it (documented → received). */
  readonly title: string;
  /** The ids of the failed cases whose first failure this is. */
  readonly cases: readonly string[];
}

/**
 * Failed cases grouped by their first blocking finding: its operation, its check and its sentence with the
 * values that differ from case to case (names, ids, lengths) blanked. Against a server with one bug every failed
 * case starts with the same failure, so the headline is one line; ties keep report order.
 */
export function likelyCauses(scenarios: readonly ScenarioResult[]): LikelyCause[] {
  const groups = new Map<string, { first: ScenarioResult['findings'][number]; readonly cases: string[] }>();
  for (const scenario of scenarios) {
    const root = scenario.findings.find((f) => f.blocking);
    if (root === undefined) continue;
    const key = causeKey(root);
    const group = groups.get(key);
    if (group === undefined) groups.set(key, { first: root, cases: [scenario.id] });
    else {
      group.cases.push(scenario.id);
      // The sentence that says what was documented is the one to head the cause with.
      if (root.checkId === 'status-expected' && group.first.checkId !== 'status-expected') group.first = root;
    }
  }
  return [...groups.values()]
    .sort((a, b) => b.cases.length - a.cases.length)
    .map(({ first, cases }, i) => ({
      rank: i + 1,
      operationId: first.operationId,
      checkId: first.checkId,
      severity: first.severity,
      title: first.title,
      cases,
    }));
}

// A status the step did not expect and a status the contract does not document are one cause when the same
// operation answered the same status: the server's answer, not the case's expectation, is what went wrong.
const STATUS_CHECKS = new Set(['status-expected', 'status-documented']);

function causeKey(root: ScenarioResult['findings'][number]): string {
  if (STATUS_CHECKS.has(root.checkId) && root.response !== undefined)
    return `${root.operationId}\u0000status\u0000${root.response.status}`;
  return `${root.operationId}\u0000${root.checkId}\u0000${shapeOf(root.title)}`;
}

// Quoted text and numbers of four digits or more vary from case to case (a pet's name, its id, a list's length);
// statuses and small counts do not, and tell causes apart.
function shapeOf(title: string): string {
  return title
    .replace(/"(?:[^"\\]|\\.)*"/g, '"…"')
    .replace(/'[^']*'/g, "'…'")
    .replace(/\d{4,}/g, 'N');
}

/** The cause as one line: `createPet: expected status 201, got 200 (status-expected), in 36 failed cases`. */
export function describeCause(cause: LikelyCause): string {
  const many = cause.cases.length === 1 ? 'in 1 failed case' : `in ${cause.cases.length} failed cases`;
  return `${cause.operationId}: ${cause.title} (${cause.checkId}), ${many}`;
}
