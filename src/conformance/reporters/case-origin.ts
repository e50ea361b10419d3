import type { ScenarioResult } from '../run-result.js';

/** Where a case comes from, as reports name it: `conformance/list.yaml:7`, or `generated: <kind>`. */
export function caseOrigin(scenario: Pick<ScenarioResult, 'source' | 'kind' | 'file' | 'line'>): string {
  return scenario.source === 'generated' ? `generated: ${scenario.kind ?? 'case'}` : `${scenario.file}:${scenario.line}`;
}
