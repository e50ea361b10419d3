import { REDACTED_BEARER } from '../http/exchange.js';
import type { ScenarioResult } from '../run-result.js';

/**
 * A wrong --token makes every authenticated step fail its expected status, which reads like a broken target.
 * When requests that carried the run's key got 401, say so in one line (without the key).
 */
export function keyRefusedHint(scenarios: readonly ScenarioResult[]): string | undefined {
  const refused = new Set(
    scenarios
      .flatMap((s) => s.findings)
      .filter((f) => f.request.headers.authorization === REDACTED_BEARER && f.response?.status === 401)
      .map((f) => `${f.file}|${f.scenario}|${f.step}`),
  ).size;
  if (refused === 0) return undefined;
  return `${refused} step${refused === 1 ? '' : 's'} that sent your key got 401: check --token or PETSTORE_API_KEY.`;
}
