import type { IncomingMessage } from 'node:http';
import { mockError } from './error-codes.js';

/**
 * Reads the whole body as UTF-8 text, at most `maxBytes`: a declared Content-Length over the cap is refused
 * before a byte is read, a chunked body as soon as it passes it.
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
    req.on('end', () =>
      resolve(chunks.length === 1 ? (chunks[0] as Buffer).toString('utf8') : Buffer.concat(chunks).toString('utf8')),
    );
    // The client went away or Node's request timeout cut it off (Node has answered 408 itself then).
    req.on('error', () => reject(mockError('request_incomplete')));
    req.on('aborted', () => reject(mockError('request_incomplete')));
  });
}

function tooLarge(maxBytes: number) {
  return mockError('payload_too_large', `the request body is larger than ${maxBytes} bytes`);
}
