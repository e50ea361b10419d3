import { findResponse, isJsonMedia, mediaTypeOf } from '../../../contract/find-response.js';
import type { Check } from './check.js';

export const jsonUtf8: Check = {
  id: 'json-utf8',
  severity: 'medium',
  clause:
    'What the service does: response bodies are JSON (application/json), and RFC 8259 §8.1 says JSON text exchanged between systems must be UTF-8 (a strict client refuses other bytes; a lenient one shows U+FFFD)',
  observed: 'applies',
  check: ({ operation, exchange }) => {
    const response = exchange.response;
    if (!response?.invalidUtf8) return undefined;
    // An answer that is not meant to be JSON (an HTML error page) is content-type-json's to judge, not this check's.
    const declared = findResponse(operation, response.status)?.contents.some((c) => isJsonMedia(c.mediaType)) ?? false;
    if (!declared && !isJsonMedia(mediaTypeOf(response.headers['content-type']))) return undefined;
    return {
      title: 'the body is not valid UTF-8',
      received: 'bytes that are not UTF-8 (shown as U+FFFD in this report)',
      documented: 'a JSON text in UTF-8',
    };
  },
};
