import type { JsonSchema } from '../../contract/operation.js';
import { mockError } from '../error-codes.js';
import { fieldAdder } from './read-form-body.js';

export function isMultipartForm(mediaType: string): boolean {
  return mediaType === 'multipart/form-data';
}

/**
 * A `multipart/form-data` body (RFC 7578) as the object its schema describes: each part a field by the name its
 * Content-Disposition gives, read as its property's type as a urlencoded form's value is; a file's content is its
 * value (a `format: binary` string). The mock checks that the fields the schema requires came, of the right
 * types; it keeps no file. A body that is not well formed multipart is a 400 that says where it breaks.
 */
export function readMultipartBody(
  text: string,
  contentType: string | undefined,
  schema: JsonSchema | undefined,
  coerce: (type: string | undefined, text: string) => unknown,
): Record<string, unknown> {
  const boundary = boundaryOf(contentType ?? '');
  if (boundary === undefined) throw malformed('its Content-Type names no boundary (multipart/form-data; boundary=…)');
  const delimiter = `--${boundary}`;
  const body: Record<string, unknown> = {};
  const add = fieldAdder(body, schema, coerce);
  // RFC 2046 §5.1.1: a preamble, then each part after CRLF and the delimiter, then the delimiter and `--`.
  let at = text.startsWith(delimiter) ? 0 : text.indexOf(`\r\n${delimiter}`) + 2;
  if (at === 1) throw malformed(`no part begins with its boundary ${delimiter}`);
  for (let part = 1; ; part++) {
    const after = at + delimiter.length;
    if (text.startsWith('--', after)) return body;
    const lineEnd = text.indexOf('\r\n', after);
    const next = lineEnd === -1 ? -1 : text.indexOf(`\r\n${delimiter}`, lineEnd);
    if (next === -1) throw malformed(`part ${part} is not followed by the closing boundary ${delimiter}--`);
    const content = text.slice(lineEnd + 2, next);
    const headEnd = content.startsWith('\r\n') ? 0 : content.indexOf('\r\n\r\n');
    if (headEnd === -1) throw malformed(`part ${part} has no blank line between its headers and its content`);
    const name = fieldName(content.slice(0, headEnd));
    if (name === undefined) throw malformed(`part ${part} has no Content-Disposition: form-data; name="…" (RFC 7578 §4.2)`);
    add(name, content.slice(headEnd === 0 ? 2 : headEnd + 4));
    at = next + 2;
  }
}

// RFC 2046 §5.1.1: 1 to 70 characters; quoted when it holds characters a token may not.
const BOUNDARY = /;\s*boundary\s*=\s*(?:"([^"]{1,70})"|([^\s;"]{1,70}))/i;

function boundaryOf(contentType: string): string | undefined {
  const match = BOUNDARY.exec(contentType);
  return match ? (match[1] ?? match[2]) : undefined;
}

const DISPOSITION = /^content-disposition\s*:\s*form-data\s*(;.*)?$/im;
const NAME = /;\s*name\s*=\s*(?:"((?:[^"\\]|\\.)*)"|([^;\s]+))/i;

function fieldName(head: string): string | undefined {
  const parameters = DISPOSITION.exec(head)?.[1];
  const match = parameters === undefined ? null : NAME.exec(parameters);
  if (!match) return undefined;
  return match[1] === undefined ? match[2] : match[1].replace(/\\(.)/g, '$1');
}

function malformed(why: string) {
  return mockError('validation_failed', `body: the multipart/form-data body is not well formed: ${why}`);
}
