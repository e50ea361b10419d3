import { findMedia, findResponse, isJsonMedia, mediaTypeOf } from '../../../contract/find-response.js';
import type { Check } from './check.js';

const JSON_MEDIA = 'application/json';

export const contentTypeJson: Check = {
  id: 'content-type-json',
  severity: 'medium',
  clause: 'What the service does: response bodies are JSON (application/json), as each documented response declares',
  observed: 'documented',
  check: ({ operation, exchange }) => {
    const response = exchange.response;
    if (!response) return undefined;
    const declared = findResponse(operation, response.status)?.contents ?? [];
    if (response.text === '' && declared.length === 0) return undefined;
    const received = mediaTypeOf(response.headers['content-type']);
    const allowed = declared.length > 0 ? declared.map((c) => c.mediaType) : [JSON_MEDIA];
    const ok = declared.length > 0 ? findMedia(declared, received) !== undefined : isJsonMedia(received);
    if (ok) return undefined;
    return {
      title: `Content-Type is ${received ?? 'missing'}`,
      received: `Content-Type: ${response.headers['content-type'] ?? '(none)'}`,
      documented: `Content-Type: ${allowed.join(' or ')}`,
    };
  },
};
