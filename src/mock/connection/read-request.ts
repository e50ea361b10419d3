import type { IncomingHttpHeaders } from 'node:http';
import { describeIssues, issuePathStep, type ValidationIssue } from '../../contract/compile-schema.js';
import { findMedia, mediaTypeOf } from '../../contract/find-response.js';
import { parseIntegerText, parseJson } from '../../contract/lossless-json.js';
import type { MediaSpec, Operation, ParameterSpec } from '../../contract/operation.js';
import { cookiePairs } from '../../shared/cookie-pairs.js';
import { requirePrecondition } from '../conditional/if-match.js';
import { type ErrorCode, mockError } from '../error-codes.js';
import { isForm, readFormBody } from './read-form-body.js';
import { isMultipartForm, readMultipartBody } from './read-multipart-body.js';

/** A request checked against its operation: parameters read as their schema's types, body parsed. */
export interface RequestInput {
  readonly query: Readonly<Record<string, unknown>>;
  readonly path: Readonly<Record<string, unknown>>;
  readonly body: unknown;
  /** The request's If-Match, which a write that documents the precondition checks (conditional/if-match.ts). */
  readonly ifMatch?: string;
  /** The request's If-None-Match, which such a write checks too. */
  readonly ifNoneMatch?: string;
}

export type RawQuery = Readonly<Record<string, string | string[] | undefined>>;

const PARAMETER_ERROR: Readonly<Record<ParameterSpec['in'], ErrorCode>> = {
  // A path that holds no valid id names no resource: 404 keeps getPet within its documented statuses.
  path: 'invalid_path_parameter',
  query: 'invalid_parameter',
  header: 'invalid_parameter',
  cookie: 'invalid_parameter',
};

/** Throws the AppError to answer; the order follows the request: path, query, headers, cookies, then body. */
export function readRequest(
  operation: Operation,
  pathParams: Readonly<Record<string, string>>,
  query: RawQuery,
  headers: IncomingHttpHeaders,
  bodyText: string,
): RequestInput {
  const readers = readersOf(operation);
  const path = readParameters(readers.path, pathParams, 'path');
  const queryValues = readParameters(readers.query, query, 'query');
  requirePrecondition(operation, headers);
  readParameters(readers.header, headers, 'header');
  if (readers.cookie.length > 0) readParameters(readers.cookie, cookiePairs(headers.cookie), 'cookie');
  const body = readJsonBody(operation, headers, bodyText);
  const { 'if-match': ifMatch, 'if-none-match': ifNoneMatch } = headers;
  if (ifMatch === undefined && ifNoneMatch === undefined) return { path, query: queryValues, body };
  return { path, query: queryValues, body, ifMatch, ifNoneMatch };
}

/** A parameter, with the texts already read as it and found valid: the same petId or limit comes again and again. */
interface ParameterReader {
  readonly spec: ParameterSpec;
  readonly accepted: Map<string, unknown>;
}

type Readers = Readonly<Record<ParameterSpec['in'], readonly ParameterReader[]>>;

const readersByOperation = new WeakMap<Operation, Readers>();

// Grouped by where they are read from once per operation, not filtered from all its parameters on every request.
function readersOf(operation: Operation): Readers {
  let readers = readersByOperation.get(operation);
  if (readers === undefined) {
    const at = (location: ParameterSpec['in']) =>
      operation.parameters.filter((spec) => spec.in === location).map((spec) => ({ spec, accepted: new Map() }));
    readers = { path: at('path'), query: at('query'), header: at('header'), cookie: at('cookie') };
    readersByOperation.set(operation, readers);
  }
  return readers;
}

function readParameters(
  readers: readonly ParameterReader[],
  raw: Readonly<Record<string, string | string[] | undefined>>,
  location: ParameterSpec['in'],
): Record<string, unknown> {
  const values: Record<string, unknown> = {};
  const issues: ValidationIssue[] = [];
  for (const reader of readers) {
    const text = raw[reader.spec.name];
    const value = (typeof text === 'string' ? reader.accepted.get(text) : undefined) ?? readParameter(reader, text, issues);
    if (value !== undefined) values[reader.spec.name] = value;
  }
  if (issues.length > 0) throw mockError(PARAMETER_ERROR[location], describeIssues(issues));
  return values;
}

// Texts longer than this are read each time: the cache is for the short values an app repeats, bounded in bytes too.
const ACCEPTED_CHARS = 64;
const MAX_ACCEPTED = 256;

function readParameter(reader: ParameterReader, raw: string | string[] | undefined, issues: ValidationIssue[]): unknown {
  const { spec } = reader;
  if (raw === undefined) {
    if (spec.required) issues.push({ path: `${spec.in}.${spec.name}`, message: 'is required' });
    return spec.defaultValue;
  }
  if (Array.isArray(raw) && spec.type !== 'array') {
    issues.push({ path: `${spec.in}.${spec.name}`, message: `must be given once (got ${raw.length} values)` });
    return undefined;
  }
  if (spec.type === 'array') {
    const list = [raw].flat();
    issues.push(...spec.validate(list));
    return list;
  }
  const text = raw as string;
  const value = coerce(spec.type, text);
  const found = spec.validate(value);
  if (found.length > 0) issues.push(...found);
  else if (text.length <= ACCEPTED_CHARS) {
    // A value read from text is a number, a bigint, a boolean or the text: nothing a later request could change.
    if (reader.accepted.size >= MAX_ACCEPTED) reader.accepted.clear();
    reader.accepted.set(text, value);
  }
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
  // What nearly every client sends needs no parsing of the header.
  const mediaType = contentType === JSON_TYPE ? JSON_TYPE : mediaTypeOf(contentType);
  const declared = () => spec.contents.map((c) => c.mediaType).join(', ');
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
  if (!mediaType) throw mockError('invalid_content_type', `the request has no Content-Type: send Content-Type: ${declared()}`);
  const media = findMedia(spec.contents, mediaType);
  if (!media)
    throw mockError('invalid_content_type', `Content-Type ${mediaType} is not accepted here: send Content-Type: ${declared()}`);
  if (isForm(media.mediaType)) return validated(media, readFormBody(text, media.schema, coerce));
  if (isMultipartForm(media.mediaType)) return validated(media, readMultipartBody(text, contentType, media.schema, coerce));
  if (!isJson(media.mediaType)) return text;
  // RFC 8259 §8.1: JSON exchanged between systems is UTF-8; a body declared in another charset would be misread.
  const charset = contentType === JSON_TYPE ? undefined : charsetOf(contentType);
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
  return validated(media, body);
}

function validated(media: MediaSpec, body: unknown): unknown {
  let issues: readonly ValidationIssue[];
  try {
    issues = media.validate?.(body) ?? [];
    if (issues.length > 0 && isMergePatch(media.mediaType)) issues = withoutRemovals(issues, body);
  } catch (error) {
    if (error instanceof RangeError) throw tooDeep();
    throw error;
  }
  if (issues.length > 0) throw mockError('validation_failed', describeIssues(issues));
  return body;
}

function isMergePatch(mediaType: string): boolean {
  return mediaType.toLowerCase().endsWith('merge-patch+json');
}

// RFC 7396 §2: in a merge patch a null member removes the field; it is not a value the field's schema judges. What
// the removal leaves (a required field gone) is the handler's to refuse, on the record it would make. Issues are
// matched by the path describeIssues gives them (`body.status`, `body.address.line2`).
function withoutRemovals(issues: readonly ValidationIssue[], patch: unknown): readonly ValidationIssue[] {
  const removed = new Set<string>();
  collectRemovals(patch, 'body', removed);
  if (removed.size === 0) return issues;
  return issues.filter((issue) => !removed.has(issue.path));
}

function collectRemovals(patch: unknown, at: string, removed: Set<string>): void {
  if (patch === null || typeof patch !== 'object' || Array.isArray(patch)) return;
  for (const [name, value] of Object.entries(patch)) {
    const path = issuePathStep(at, name);
    if (value === null) removed.add(path);
    else collectRemovals(value, path, removed);
  }
}

// The parser and the validator recurse once per level: thousands of nested arrays or objects exhaust the stack
// (a RangeError) before either can say anything else. No schema of the contract nests that deep.
function tooDeep() {
  return mockError('invalid_json', 'body: nested too deeply to read: send JSON with fewer arrays and objects within each other');
}

const JSON_TYPE = 'application/json';
const UTF_8 = new Set(['utf-8', 'utf8']);

/** The charset parameter of a Content-Type, unquoted (RFC 9110 §8.3.1: its value is case-insensitive). */
function charsetOf(contentType: string | undefined): string | undefined {
  const match = /;\s*charset\s*=\s*(?:"([^"]*)"|([^;\s]*))/i.exec(contentType ?? '');
  return match ? (match[1] ?? match[2]) : undefined;
}

/** application/json or a +json type (RFC 6839 §3.1), given a media type without parameters. */
export function isJson(mediaType: string): boolean {
  return mediaType === JSON_TYPE || mediaType.endsWith('+json');
}
