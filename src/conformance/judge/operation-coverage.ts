import type { Operation } from '../../contract/operation.js';
import type { CoverageRow, ScenarioResult } from '../run-result.js';

/**
 * Operations by documented status: how often each was exercised, passed, failed and only observed. Statuses a target sent
 * that the contract does not document get rows of their own, marked undocumented.
 */
export function operationCoverage(operations: readonly Operation[], scenarios: readonly ScenarioResult[]): CoverageRow[] {
  const documented = operations.flatMap((op) =>
    op.responses.map((response) => ({
      operationId: op.operationId,
      method: op.method,
      path: op.path,
      status: response.code,
      deprecated: op.deprecated,
    })),
  );
  return countCoverage(documented, scenarios);
}

/**
 * The same table over rows already known to be documented (the merged reports of shards, which all read one
 * contract), counted again from the cases.
 */
export function countCoverage(
  documented: readonly Pick<CoverageRow, 'operationId' | 'method' | 'path' | 'status' | 'deprecated'>[],
  scenarios: readonly ScenarioResult[],
): CoverageRow[] {
  const rows = new Map<string, Counted>();
  const operations = new Map(documented.map((row) => [row.operationId, row]));
  const newRow = (
    op: Pick<CoverageRow, 'method' | 'path' | 'deprecated'> | undefined,
    operationId: string,
    status: string,
    known: boolean,
  ): Counted => ({
    operationId,
    method: op?.method ?? '',
    path: op?.path ?? '',
    status,
    documented: known,
    deprecated: op?.deprecated ?? false,
    exercised: 0,
    passed: 0,
    failed: 0,
    observed: 0,
  });
  for (const row of documented) rows.set(`${row.operationId} ${row.status}`, newRow(row, row.operationId, row.status, true));
  for (const exchange of scenarios.flatMap((s) => s.exchanges)) {
    if (exchange.status === undefined) continue;
    const status = exchange.documentedAs ?? String(exchange.status);
    const key = `${exchange.operationId} ${status}`;
    let row = rows.get(key);
    if (!row) {
      row = newRow(operations.get(exchange.operationId), exchange.operationId, status, false);
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
