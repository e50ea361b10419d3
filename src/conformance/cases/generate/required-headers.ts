import type { Operation, ParameterSpec } from '../../../contract/operation.js';
import { isCredentialName } from '../../../shared/mask-credentials.js';
import { sampleValue } from './sample-value.js';

/**
 * The header parameters an operation requires, each with a value the contract calls valid: a server that refuses a
 * request without one (428 for a missing If-Match, RFC 6585 §3) would otherwise fail every valid case of it.
 * Credentials are left to the run's key and -H; the names OpenAPI says a parameter cannot describe (§4.8.12.1) too.
 */
export function requiredHeaders(operation: Operation): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const parameter of operation.parameters) {
    if (parameter.in !== 'header' || !parameter.required) continue;
    if (isCredentialName(parameter.name) || FRAMED_BY_HTTP.has(parameter.name)) continue;
    headers[parameter.name] = String(headerValue(parameter));
  }
  return headers;
}

const FRAMED_BY_HTTP = new Set(['accept', 'content-type', 'authorization']);

/**
 * The contract's example or default; else for a precondition one that holds for any current record (RFC 9110
 * §13.1): `If-Match: *` matches any representation, an entity tag no server makes matches none for
 * `If-None-Match`, and dates before and after any change for the two date preconditions; else the sample.
 */
function headerValue(parameter: ParameterSpec): unknown {
  const schema = parameter.schema;
  return schema.example ?? schema.examples?.[0] ?? schema.default ?? HOLDING[parameter.name] ?? sampleValue(schema);
}

const HOLDING: Readonly<Record<string, string>> = {
  'if-match': '*',
  'if-none-match': '"conformance-matches-nothing"',
  'if-modified-since': 'Thu, 01 Jan 1970 00:00:00 GMT',
  'if-unmodified-since': 'Fri, 31 Dec 9999 23:59:59 GMT',
};
