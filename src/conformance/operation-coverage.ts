import type { Operation } from '../contract/operation.js';
import type { CoverageRow, ScenarioResult } from './run-result.js';

/**
 * Operations by documented status: how often each was exercised, passed, failed and only observed. Statuses a target sent
 * that the contract does not document get rows of their own, marked undocumented.
 */
export function operationCoverage(operations: readonly Operation[], scenarios: readonly ScenarioResult[]): CoverageRow[] {
  const rows = new Map<string, Counted>();
  const newRow = (op: Operation | undefined, operationId: string, status: string, documented: boolean): Counted => ({
    operationId,
    method: op?.method ?? '',
    path: op?.path ?? '',
    status,
    documented,
    deprecated: op?.deprecated ?? false,
    exercised: 0,
    passed: 0,
    failed: 0,
    observed: 0,
  });
  for (const op of operations) {
    for (const response of op.responses)
      rows.set(`${op.operationId} ${response.code}`, newRow(op, op.operationId, response.code, true));
  }
  const byId = new Map(operations.map((op) => [op.operationId, op]));
  for (const exchange of scenarios.flatMap((s) => s.exchanges)) {
    if (exchange.status === undefined) continue;
    const status = exchange.documentedAs ?? String(exchange.status);
    const key = `${exchange.operationId} ${status}`;
    let row = rows.get(key);
    if (!row) {
      row = newRow(byId.get(exchange.operationId), exchange.operationId, status, false);
      rows.set(key, row);
    }
    row.exercised++;
    if (exchange.failed) row.failed++;
    else if (exchange.observed) row.observed++;
    else row.passed++;
  }
  return [...rows.values()];
}

type Counted = { -readonly [K in keyof CoverageRow]: CoverageRow[K] };
