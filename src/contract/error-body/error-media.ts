import { findResponse, isJsonMedia } from '../find-response.js';
import type { MediaSpec, Operation, ResponseSpec } from '../operation.js';

/** The JSON body with a schema that a response documents, the first of its media types that has one. */
export function jsonBodyOf(response: ResponseSpec | undefined): MediaSpec | undefined {
  return response?.contents.find((media) => isJsonMedia(media.mediaType) && media.schema && media.validate);
}

/** The error body `operation` documents for `status`: the exact code, else its range (4XX), else default. */
export function documentedErrorMedia(operation: Operation, status: number): MediaSpec | undefined {
  return jsonBodyOf(findResponse(operation, status));
}

/**
 * The error body the contract uses most: the schema most of its documented 4XX, 5XX and default responses give
 * (the first of those met most often, in the contract's order). What answers a status an operation documents
 * no body for; undefined for a contract that documents no error body.
 */
export function commonErrorMedia(operations: readonly Operation[]): MediaSpec | undefined {
  const counts = new Map<string, { media: MediaSpec; count: number }>();
  let best: { media: MediaSpec; count: number } | undefined;
  for (const operation of operations) {
    for (const response of operation.responses) {
      if (!/^(?:[45]|default$)/i.test(response.code)) continue;
      const media = jsonBodyOf(response);
      if (!media) continue;
      const key = bodyKey(media);
      const entry = counts.get(key) ?? { media, count: 0 };
      entry.count++;
      counts.set(key, entry);
      if (!best || entry.count > best.count) best = entry;
    }
  }
  return best?.media;
}

const keys = new WeakMap<MediaSpec, string>();
let unique = 0;

/**
 * One text for the same body given in two places (a $ref to components: each operation has its own copy of it);
 * a schema that contains itself cannot be written as text and is a body of its own.
 */
export function bodyKey(media: MediaSpec): string {
  let key = keys.get(media);
  if (key === undefined) {
    try {
      key = `${media.mediaType} ${JSON.stringify(media.schema)}`;
    } catch {
      key = `#${unique++}`;
    }
    keys.set(media, key);
  }
  return key;
}
