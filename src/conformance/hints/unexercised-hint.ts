import type { CoverageRow } from '../run-result.js';

/** Documented statuses that no case of the run received: the table marks them, and this line says so. */
export function unexercisedHint(coverage: readonly CoverageRow[]): string | undefined {
  const missing = coverage
    .filter((row) => row.documented && row.exercised === 0)
    .map((row) => `${row.operationId} ${row.status}`);
  if (missing.length === 0) return undefined;
  return `Not exercised: ${missing.length} documented status${missing.length === 1 ? '' : 'es'} got no answer in this run (${missing.join(', ')}).`;
}
