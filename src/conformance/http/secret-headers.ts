import { isCredentialName } from '../../shared/mask-credentials.js';
import { templateReferences } from '../cases/interpolate.js';
import type { Scenario } from '../cases/scenario.js';

/**
 * The credentials a run sends in headers (-H, and a scenario's `{{env.NAME}}` in a credential header): where they
 * are sent they are masked by the header's name (mask-credentials.ts); these are their values, for a target that
 * echoes one back elsewhere (create-redactor.ts looks only for those long enough to tell from a word).
 */
export function secretHeaderValues(headers: Readonly<Record<string, string>> | undefined): string[] {
  return Object.entries(headers ?? {})
    .filter(([name]) => isCredentialName(name))
    .map(([, value]) => value);
}

/** The environment values that scenario steps send in a credential header: `X-Api-Key: '{{env.PARTNER_KEY}}'`. */
export function envCredentials(scenarios: readonly Scenario[], env: Readonly<Record<string, string | undefined>>): string[] {
  const values = new Set<string>();
  for (const step of scenarios.flatMap((scenario) => scenario.steps)) {
    for (const [name, value] of Object.entries(step.headers)) {
      if (typeof value !== 'string' || !isCredentialName(name) || !value.includes('{{')) continue;
      for (const reference of templateReferences(value)) {
        const secret = 'name' in reference && reference.name === 'env' ? env[reference.keys[0] ?? ''] : undefined;
        if (secret) values.add(secret);
      }
    }
  }
  return [...values];
}
