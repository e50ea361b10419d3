import type { IncomingHttpHeaders } from 'node:http';
import { describeIssues, type ValidationIssue } from '../contract/compile-schema.js';
import { findMedia, mediaTypeOf } from '../contract/find-response.js';
import { parseIntegerText, parseJson } from '../contract/lossless-json.js';
import type { Operation, ParameterSpec } from '../contract/operation.js';
import { type ErrorCode, mockError } from './error-codes.js';

/** A request checked against its operation: parameters read as their schema's types, body parsed. */
export interface RequestInput {
  readonly query: Readonly<Record<string, unknown>>;
  readonly path: Readonly<Record<string, unknown>>;
  readonly body: unknown;
}

export type RawQuery = Readonly<Record<string, string | string[] | undefined>>;

const PARAMETER_ERROR: Readonly<Record<ParameterSpec['in'], ErrorCode>> = {
  // A path that holds no valid id names no resource: 404 keeps getPet within its documented statuses.
  path: 'invalid_path_parameter',
  query: 'invalid_parameter',
  header: 'invalid_parameter',
};

/** Throws the AppError to answer; the order follows the request: path, query, headers, then body. */
export function readRequest(
  operation: Operation,
  pathParams: Readonly<Record<string, string>>,
  query: RawQuery,
  headers: IncomingHttpHeaders,
  bodyText: string,
): RequestInput {
  const values: Record<ParameterSpec['in'], Record<string, unknown>> = { path: {}, query: {}, header: {} };
  for (const location of ['path', 'query', 'header'] as const) {
    const issues: ValidationIssue[] = [];
    for (const spec of operation.parameters) {
      if (spec.in !== location) continue;
      const raw = location === 'path' ? pathParams[spec.name] : location === 'query' ? query[spec.name] : headers[spec.name];
      const value = readParameter(spec, raw, issues);
      if (value !== undefined) values[location][spec.name] = value;
    }
    if (issues.length > 0) throw mockError(PARAMETER_ERROR[location], describeIssues(issues));
  }
  return { path: values.path, query: values.query, body: readJsonBody(operation, headers, bodyText) };
}

function readParameter(spec: ParameterSpec, raw: string | string[] | undefined, issues: ValidationIssue[]): unknown {
  const where = `${spec.in}.${spec.name}`;
  if (raw === undefined) {
    if (spec.required) issues.push({ path: where, message: 'is required' });
    return spec.defaultValue;
  }
  if (Array.isArray(raw) && spec.type !== 'array') {
    issues.push({ path: where, message: `must be given once (got ${raw.length} values)` });
    return undefined;
  }
  const value = spec.type === 'array' ? [raw].flat() : coerce(spec.type, raw as string);
  issues.push(...spec.validate(value));
  return value;
}

// Query and path values are text; the schema's type says how to read them before validation.
function coerce(type: string | undefined, text: string): unknown {
  switch (type) {
    case 'integer':
      return parseIntegerText(text) ?? text;
    case 'number':
      return text.trim() !== '' && Number.isFinite(Number(text)) ? Number(text) : text;
    case 'boolean':
      return text === 'true' ? true : text === 'false' ? false : text;
    default:
      return text;
  }
}

function readJsonBody(operation: Operation, headers: IncomingHttpHeaders, text: string): unknown {
  const spec = operation.requestBody;
  if (!spec) return undefined;
  const contentType = headers['content-type'];
  const mediaType = mediaTypeOf(contentType);
  const declared = spec.contents.map((c) => c.mediaType).join(', ');
  if (text === '' && !spec.required) return undefined;
  // The mock reads bodies as sent: a compressed one would be judged as invalid JSON, with no word on why.
  const encoding = headers['content-encoding'];
  if (text !== '' && encoding !== undefined && encoding.split(',').some((coding) => coding.trim().toLowerCase() !== 'identity')) {
    throw mockError(
      'unsupported_content_encoding',
      `Content-Encoding ${encoding} is not accepted: the mock does not decode request bodies; send the body uncompressed, without Content-Encoding`,
    );
  }
  // Seed, Errors: a missing Content-Type: application/json is a 400 on createPet.
  if (!mediaType) throw mockError('invalid_content_type', `the request has no Content-Type: send Content-Type: ${declared}`);
  const media = findMedia(spec.contents, mediaType);
  if (!media)
    throw mockError('invalid_content_type', `Content-Type ${mediaType} is not accepted here: send Content-Type: ${declared}`);
  if (!isJson(media.mediaType)) return text;
  // RFC 8259 §8.1: JSON exchanged between systems is UTF-8; a body declared in another charset would be misread.
  const charset = charsetOf(contentType);
  if (charset !== undefined && !UTF_8.has(charset.toLowerCase())) {
    throw mockError(
      'invalid_content_type',
      `Content-Type charset ${charset} is not accepted: JSON is UTF-8 (RFC 8259 §8.1): send Content-Type: ${media.mediaType} or ${media.mediaType}; charset=utf-8`,
    );
  }
  if (text.trim() === '') throw mockError('missing_body');
  let body: unknown;
  try {
    body = parseJson(text);
  } catch (error) {
    if (error instanceof RangeError) throw tooDeep();
    throw mockError('invalid_json', `body: the request body is not valid JSON: ${(error as Error).message}`);
  }
  let issues: readonly ValidationIssue[];
  try {
    issues = media.validate?.(body) ?? [];
  } catch (error) {
    if (error instanceof RangeError) throw tooDeep();
    throw error;
  }
  if (issues.length > 0) throw mockError('validation_failed', describeIssues(issues));
  return body;
}

// The parser and the validator recurse once per level: thousands of nested arrays or objects exhaust the stack
// (a RangeError) before either can say anything else. No schema of the contract nests that deep.
function tooDeep() {
  return mockError('invalid_json', 'body: nested too deeply to read: send JSON with fewer arrays and objects within each other');
}

const UTF_8 = new Set(['utf-8', 'utf8']);

/** The charset parameter of a Content-Type, unquoted (RFC 9110 §8.3.1: its value is case-insensitive). */
function charsetOf(contentType: string | undefined): string | undefined {
  const match = /;\s*charset\s*=\s*(?:"([^"]*)"|([^;\s]*))/i.exec(contentType ?? '');
  return match ? (match[1] ?? match[2]) : undefined;
}

function isJson(mediaType: string): boolean {
  return mediaType === 'application/json' || mediaType.endsWith('+json');
}
