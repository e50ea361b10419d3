import type { MediaSpec, Operation, ResponseSpec } from './operation.js';

/** OpenAPI's precedence: the exact code, then its range (2XX), then default. */
export function findResponse(operation: Operation, status: number): ResponseSpec | undefined {
  let byStatus = found.get(operation);
  if (byStatus === undefined) {
    byStatus = new Map();
    found.set(operation, byStatus);
  }
  let response = byStatus.get(status);
  if (response === undefined) {
    response = lookUp(operation, status) ?? null;
    byStatus.set(status, response);
  }
  return response ?? undefined;
}

// Judging one answer asks for its documented response about ten times (the checks, the summary, open choices), and
// a run's answers come in a handful of statuses: each is looked up once per operation. null: none documented.
const found = new WeakMap<Operation, Map<number, ResponseSpec | null>>();

function lookUp(operation: Operation, status: number): ResponseSpec | undefined {
  const exact = String(status);
  const range = `${exact[0]}XX`;
  let byRange: ResponseSpec | undefined;
  let byDefault: ResponseSpec | undefined;
  for (const response of operation.responses) {
    if (response.code === exact) return response;
    if (response.code === range) byRange = response;
    else if (response.code === 'default') byDefault = response;
  }
  return byRange ?? byDefault;
}

/** The media type of a Content-Type header value, lower-case, without parameters. */
export function mediaTypeOf(contentType: string | undefined): string | undefined {
  if (!contentType) return undefined;
  const semi = contentType.indexOf(';');
  return (semi === -1 ? contentType : contentType.slice(0, semi)).trim().toLowerCase() || undefined;
}

/** application/json, or an application/ type with the +json suffix (RFC 6839 §3.1: application/problem+json). */
export function isJsonMedia(mediaType: string | undefined): boolean {
  return mediaType === 'application/json' || (!!mediaType?.startsWith('application/') && mediaType.endsWith('+json'));
}

/** Exact media type first, then type/*, then *\/*, as OpenAPI's content map reads. */
export function findMedia(contents: readonly MediaSpec[], mediaType: string | undefined): MediaSpec | undefined {
  if (!mediaType) return undefined;
  const exact = contents.find((c) => c.mediaType === mediaType);
  if (exact) return exact;
  const slash = mediaType.indexOf('/');
  const wildcard = `${slash === -1 ? mediaType : mediaType.slice(0, slash)}/*`;
  return contents.find((c) => c.mediaType === wildcard) ?? contents.find((c) => c.mediaType === '*/*');
}
