import { requestSchema } from '../../../contract/resources/representation.js';
import type { Contract } from '../../../contract/load-contract.js';
import type { Operation } from '../../../contract/operation.js';
import type { Random } from './create-random.js';
import type { StepSpec } from './make-case.js';
import { freshWrite } from './round-trip.js';
import { sampleValue } from './sample-value.js';

/**
 * A request the contract calls valid: required parameters and body from samples, the run's key; with `fresh`, the
 * body's unique keys (an email) drawn for this request alone, so that a write it makes takes no other case's.
 */
export function validRequest(
  operation: Operation,
  fresh?: { readonly contract: Contract; readonly random: Random },
): Pick<StepSpec, 'operation' | 'params' | 'query' | 'body'> {
  const params: Record<string, unknown> = {};
  const query: Record<string, unknown> = {};
  for (const parameter of operation.parameters) {
    if (parameter.in === 'path') params[parameter.name] = sampleValue(parameter.schema);
    else if (parameter.in === 'query' && parameter.required) query[parameter.name] = sampleValue(parameter.schema);
  }
  const schema = requestSchema(operation);
  const sample = sampleValue(schema);
  const value = fresh ? freshWrite(fresh.contract, operation, sample, fresh.random) : sample;
  const body = operation.requestBody ? { kind: 'json' as const, value } : undefined;
  return { operation, params, query, body };
}
