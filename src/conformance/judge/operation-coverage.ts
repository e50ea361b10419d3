import type { Operation } from '../../contract/operation.js';
import type { NotMade } from '../cases/generate/case-kind.js';
import type { CoverageRow, ScenarioResult } from '../run-result.js';

/**
 * Operations by documented status: how often each was exercised, passed, failed and only observed, and the cases of
 * the operation that could not be generated, with why (on its first row). Statuses a target sent that the contract
 * does not document get rows of their own, marked undocumented.
 */
export function operationCoverage(
  operations: readonly Operation[],
  scenarios: readonly ScenarioResult[],
  notMade: readonly NotMade[] = [],
): CoverageRow[] {
  const documented = operations.flatMap((op) => {
    const reasons = notMade.filter((n) => n.operationId === op.operationId).map((n) => `${n.cases}: ${n.reason}`);
    return op.responses.map((response, i) => ({
      operationId: op.operationId,
      method: op.method,
      path: op.path,
      status: response.code,
      deprecated: op.deprecated,
      ...(i === 0 && reasons.length > 0 ? { notGenerated: reasons } : {}),
    }));
  });
  return countCoverage(documented, scenarios);
}

/**
 * The same table over rows already known to be documented (the merged reports of shards, which all read one
 * contract), counted again from the cases.
 */
export function countCoverage(
  documented: readonly Pick<CoverageRow, 'operationId' | 'method' | 'path' | 'status' | 'deprecated' | 'notGenerated'>[],
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
  for (const row of documented) {
    const counted = newRow(row, row.operationId, row.status, true);
    rows.set(`${row.operationId} ${row.status}`, row.notGenerated ? { ...counted, notGenerated: row.notGenerated } : counted);
  }
  for (const exchange of scenarios.flatMap((s) => s.exchanges)) {
    // HEAD or OPTIONS on an operation's path (the http kind) is HTTP's method, not the operation: it covers none of its statuses.
    const op = operations.get(exchange.operationId);
    if (exchange.status === undefined || (op !== undefined && exchange.method !== op.method)) continue;
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
