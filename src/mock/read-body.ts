import { isUtf8 } from 'node:buffer';
import type { IncomingMessage } from 'node:http';
import { mediaTypeOf } from '../contract/find-response.js';
import { mockError } from './error-codes.js';
import { isJson } from './read-request.js';

/**
 * Reads the whole body as UTF-8 text, at most `maxBytes`: a declared Content-Length over the cap is refused
 * before a byte is read, a chunked body as soon as it passes it. A JSON body that is not UTF-8 is refused
 * (RFC 8259 §8.1: JSON text exchanged between systems is UTF-8): decoded anyway, each bad byte would become
 * U+FFFD, and the pet stored would not be the one sent.
 */
export function readBody(req: IncomingMessage, maxBytes: number): Promise<string> {
  const declared = Number(req.headers['content-length'] ?? 0);
  if (declared > maxBytes) return Promise.reject(tooLarge(maxBytes));
  if (declared === 0 && req.headers['transfer-encoding'] === undefined) return Promise.resolve('');
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > maxBytes) {
        req.removeAllListeners('data');
        req.pause();
        reject(tooLarge(maxBytes));
        return;
      }
      chunks.push(chunk);
    });
    req.on('end', () => {
      const body = chunks.length === 1 ? (chunks[0] as Buffer) : Buffer.concat(chunks);
      // A coded body (gzip) is refused as such by read-request (unsupported_content_encoding), not as bad UTF-8.
      const coded = req.headers['content-encoding'] !== undefined && req.headers['content-encoding'].trim().toLowerCase() !== 'identity';
      if (!coded && !isUtf8(body) && isJson(mediaTypeOf(req.headers['content-type']) ?? '')) {
        reject(mockError('invalid_json', 'body: the request body is not valid UTF-8, which JSON text must be (RFC 8259 §8.1)'));
      } else {
        resolve(body.toString('utf8'));
      }
    });
    // The client went away or Node's request timeout cut it off (Node has answered 408 itself then).
    req.on('error', () => reject(mockError('request_incomplete')));
    req.on('aborted', () => reject(mockError('request_incomplete')));
  });
}

function tooLarge(maxBytes: number) {
  return mockError('payload_too_large', `the request body is larger than ${maxBytes} bytes`);
}
