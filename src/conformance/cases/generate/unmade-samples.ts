import type { JsonSchema } from '../../../contract/operation.js';
import { requestSchema } from '../../../contract/resources/representation.js';
import { endlessRecursion, unmadeSample } from '../../../contract/sample-value.js';
import type { Scenario, Step } from '../scenario.js';
import { sampleValue } from './sample-value.js';

/**
 * Why a case cannot be sent as the contract calls valid, or undefined: a step that expects only success sends, in
 * its body or query, a field's sample where no valid value could be made (a pattern with a lookahead, and no example
 * that matches it). A correct server would refuse it, and the failure would be the runner's: the case is not made,
 * and the construct is named (issue 22). So is a body whose schema requires itself inside itself: no finite value
 * of it is valid.
 */
export function unmadeInCase(scenario: Scenario): { readonly operationId: string; readonly reason: string } | undefined {
  for (const step of scenario.steps) {
    // Whatever it is sent as, a body of a schema that requires itself inside itself is not valid: no success is due.
    const endless =
      step.body !== undefined && mayExpectSuccess(step) ? endlessRecursion(requestSchema(step.operation)) : undefined;
    if (endless !== undefined) return { operationId: step.operation.operationId, reason: `body.${endless}` };
    if (!expectsSuccessOnly(step)) continue;
    const sent = step.body?.kind === 'json' ? step.body.value : undefined;
    const body = typeof sent === 'string' ? step.repeat?.each?.[0] : sent;
    const fields: [string, JsonSchema | undefined, unknown][] = [
      ...Object.entries(requestSchema(step.operation)?.properties ?? {}).map(([name, schema]): [string, JsonSchema, unknown] => [
        `body.${name}`,
        schema,
        fieldOf(body, name),
      ]),
      ...step.operation.parameters
        .filter((p) => p.in === 'query')
        .map((p): [string, JsonSchema, unknown] => [`query.${p.name}`, p.schema, step.query?.[p.name]]),
    ];
    for (const [where, schema, value] of fields) {
      if (schema === undefined || value === undefined || value !== sampleValue(schema)) continue;
      const unmade = unmadeSample(schema);
      if (unmade !== undefined)
        return {
          operationId: step.operation.operationId,
          reason: `${where}: no valid value could be made for its ${unmade}, and the contract gives no example that fits: a correct server would refuse the sample`,
        };
    }
  }
  return undefined;
}

function fieldOf(body: unknown, name: string): unknown {
  return body !== null && typeof body === 'object' && !Array.isArray(body) ? (body as Record<string, unknown>)[name] : undefined;
}

function mayExpectSuccess(step: Step): boolean {
  return (step.expect?.status ?? []).some((status) =>
    typeof status === 'number' ? status >= 200 && status < 300 : status === '2XX',
  );
}

function expectsSuccessOnly(step: Step): boolean {
  const statuses = step.expect?.status;
  if (!statuses || statuses.length === 0) return false;
  return statuses.every((status) => (typeof status === 'number' ? status >= 200 && status < 300 : status === '2XX'));
}
