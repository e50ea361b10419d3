import { isJsonMedia, mediaTypeOf } from '../../../contract/find-response.js';
import type { Check } from './check.js';

// UTF-8 by its registered name and the alias servers write; US-ASCII is a subset, true of a body that is all ASCII.
const UTF8 = new Set(['utf-8', 'utf8']);
const ASCII = new Set(['us-ascii', 'ascii']);

/**
 * RFC 8259 §8.1: JSON exchanged between systems MUST be UTF-8. application/json defines no charset (§11), so one is
 * harmless only when it says UTF-8: `charset=latin1` tells a client that honours it (XMLHttpRequest, many HTTP
 * libraries' text()) to read the bytes as another encoding, and any non-ASCII text comes out wrong.
 */
export const jsonCharset: Check = {
  id: 'json-charset',
  severity: 'medium',
  clause:
    'RFC 8259 §8.1: JSON text exchanged between systems MUST be UTF-8; a JSON Content-Type naming another charset says it is not',
  observed: 'applies',
  check: ({ exchange }) => {
    const response = exchange.response;
    const type = response?.headers['content-type'];
    // Most answers carry no charset: one search, and nothing more.
    if (response === undefined || type === undefined || !/charset/i.test(type)) return undefined;
    const charset = /;\s*charset\s*=\s*"?([^";\s]*)/i.exec(type)?.[1]?.toLowerCase();
    if (charset === undefined || UTF8.has(charset) || !isJsonMedia(mediaTypeOf(type))) return undefined;
    // One byte a character in UTF-8 is all ASCII.
    if (ASCII.has(charset) && Buffer.byteLength(response.text) === response.text.length) return undefined;
    return {
      title: `JSON sent as charset=${charset}`,
      received: `Content-Type: ${type}`,
      documented: 'JSON in UTF-8: no charset parameter, or charset=utf-8',
    };
  },
};
