import { placementSaid } from '../../contract/key-placement.js';
import { REDACTED_BEARER, type SentRequest } from '../http/exchange.js';
import type { ScenarioResult } from '../run-result.js';

/**
 * A wrong --token makes every authenticated step fail its expected status, which reads like a broken target.
 * When requests that carried the run's key got 401, say so in one line (without the key), and how it was sent.
 */
export function keyRefusedHint(scenarios: readonly ScenarioResult[]): string | undefined {
  const findings = scenarios
    .flatMap((s) => s.findings)
    .filter(
      (f) =>
        (f.request.credential?.runKey === true || f.request.headers.authorization === REDACTED_BEARER) &&
        f.response?.status === 401,
    );
  const refused = new Set(findings.map((f) => `${f.file}|${f.scenario}|${f.step}`)).size;
  if (refused === 0) return undefined;
  return `${refused} step${refused === 1 ? '' : 's'} that sent your key got 401: check --token or PETSTORE_API_KEY${howSent(findings.map((f) => f.request))}.`;
}

/** ` (sent in the X-API-Key header, as the contract's apiKey scheme 'ApiKeyAuth' says)`, for each way the key went. */
export function howSent(requests: readonly SentRequest[]): string {
  const said = new Set<string>();
  for (const request of requests) {
    const placement = request.credential?.placement;
    // Bearer is what the run's key has always been: only another scheme is worth a word.
    if (placement !== undefined && (placement.scheme !== 'bearer' || placement.tokenOf)) said.add(placementSaid(placement));
  }
  return said.size === 0 ? '' : ` (${[...said].join('; ')})`;
}
