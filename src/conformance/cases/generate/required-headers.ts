import type { Operation, ParameterSpec } from '../../../contract/operation.js';
import { isCredentialName } from '../../../shared/mask-credentials.js';
import { sampleValue } from './sample-value.js';

/**
 * The header and cookie parameters an operation requires, each with a value the contract calls valid: a server
 * that refuses a request without one (428 for a missing If-Match, RFC 6585 §3) would otherwise fail every valid case
 * of it. Credentials are left to the run's key and -H; the names OpenAPI says a parameter cannot describe
 * (§4.8.12.1) too. Cookies go in one Cookie header, each value percent-encoded (RFC 6265 §4.1.1 allows no space,
 * comma or semicolon in one).
 */
export function requiredHeaders(operation: Operation): Record<string, string> {
  const headers: Record<string, string> = {};
  const cookies: string[] = [];
  for (const parameter of operation.parameters) {
    if (!parameter.required || isCredentialName(parameter.name)) continue;
    if (parameter.in === 'cookie') cookies.push(`${parameter.name}=${encodeURIComponent(String(headerValue(parameter)))}`);
    else if (parameter.in === 'header' && !FRAMED_BY_HTTP.has(parameter.name)) {
      headers[parameter.name] = String(headerValue(parameter));
    }
  }
  if (cookies.length > 0) headers.cookie = cookies.join('; ');
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
