import { requestSchema } from '../../../contract/resources/representation.js';
import type { Operation } from '../../../contract/operation.js';
import type { StepSpec } from './make-case.js';
import { sampleValue } from './sample-value.js';

/** A request the contract calls valid: required parameters and body from samples, the run's key. */
export function validRequest(operation: Operation): Pick<StepSpec, 'operation' | 'params' | 'query' | 'body'> {
  const params: Record<string, unknown> = {};
  const query: Record<string, unknown> = {};
  for (const parameter of operation.parameters) {
    if (parameter.in === 'path') params[parameter.name] = sampleValue(parameter.schema);
    else if (parameter.in === 'query' && parameter.required) query[parameter.name] = sampleValue(parameter.schema);
  }
  const schema = requestSchema(operation);
  const body = operation.requestBody ? { kind: 'json' as const, value: sampleValue(schema) } : undefined;
  return { operation, params, query, body };
}
