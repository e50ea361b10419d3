import type { Check } from './check.js';

/**
 * A GET whose If-None-Match names the tag the record has just been read with (generate/kinds/conditional-reads.ts)
 * is answered 304 where the contract documents the 304, and the 304 repeats the ETag. The request is sent raw, so
 * bytes after the 304's header block are `no-content-after-headers`' to find. Where only the If-None-Match
 * parameter is documented, a 200 is HTTP's choice (RFC 9110 §13.1.2 lets a server ignore it): the step observes.
 */
export const notModified: Check = {
  id: 'not-modified',
  severity: 'high',
  clause:
    'RFC 9110 §13.1.2, §15.4.5: a GET whose If-None-Match names the current entity tag is answered 304 Not Modified where the contract documents the 304, with no content and the ETag it would have sent with a 200',
  observed: 'applies',
  check: ({ expect, exchange }) => {
    const wanted = expect?.conditional;
    const response = exchange.response;
    if (wanted?.check !== 'not-modified' || !response) return undefined;
    const tag = String(exchange.request.headers['if-none-match'] ?? '');
    if (response.status === 304) {
      if (response.headers.etag !== undefined) return undefined;
      return {
        title: 'not-modified: the 304 carries no ETag',
        received: 'HTTP 304 without an ETag header',
        documented: 'a 304 sends the ETag a 200 would have sent (RFC 9110 §15.4.5)',
      };
    }
    if (!wanted.documented && response.status >= 200 && response.status < 300) return undefined;
    return {
      title: `not-modified: a GET with If-None-Match ${tag}, the record's own tag, answered ${response.status}`,
      received: `HTTP ${response.status}`,
      documented: `304 Not Modified, which the contract documents, for an If-None-Match naming the current tag ${tag}`,
    };
  },
};
