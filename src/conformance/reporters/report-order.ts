import type { ScenarioResult } from '../run-result.js';

/**
 * The order every report lists cases in, whatever order they finished in: scenario files as the run loaded them
 * (file order, then position in the file), then generated cases by id. Two runs with the same seed read alike.
 */
export function reportOrder(scenarios: readonly ScenarioResult[]): ScenarioResult[] {
  const fromFiles = scenarios.filter((s) => s.source !== 'generated');
  const generated = scenarios.filter((s) => s.source === 'generated').sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  return [...fromFiles, ...generated];
}
