import { isUtf8 } from 'node:buffer';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { mediaTypeOf } from '../../contract/find-response.js';
import { markClosing } from './closing-connection.js';
import { continueIfOwed, continueOwed } from './hold-continue.js';
import { mockError } from '../error-codes.js';
import { isJson } from './read-request.js';

/**
 * Reads the whole body as UTF-8 text, at most `maxBytes`: a declared Content-Length over the cap is refused
 * before a byte is read, a chunked body as soon as it passes it. A JSON body that is not UTF-8 is refused
 * (RFC 8259 §8.1: JSON text exchanged between systems is UTF-8): decoded anyway, each bad byte would become
 * U+FFFD, and the pet stored would not be the one sent.
 */
export function readBody(req: IncomingMessage, res: ServerResponse, maxBytes: number): Promise<string> {
  const declared = Number(req.headers['content-length'] ?? 0);
  // A client waiting for 100 Continue sends nothing: refused at once, with nothing to read and drop.
  if (declared > MAX_DISCARDED_BYTES || (declared > maxBytes && continueOwed(res))) {
    markClosing(req.socket);
    return Promise.reject(tooLarge(maxBytes));
  }
  continueIfOwed(res);
  if (declared > maxBytes) return discard(req, 0, maxBytes);
  if (declared === 0 && req.headers['transfer-encoding'] === undefined) return Promise.resolve('');
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let refused = false;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > maxBytes) {
        req.removeAllListeners('data');
        chunks.length = 0;
        refused = true;
        discard(req, size, maxBytes).catch(reject);
        return;
      }
      chunks.push(chunk);
    });
    req.on('end', () => {
      if (refused) return;
      const body = chunks.length === 1 ? (chunks[0] as Buffer) : Buffer.concat(chunks);
      // A coded body (gzip) is refused as such by read-request (unsupported_content_encoding), not as bad UTF-8.
      const coded =
        req.headers['content-encoding'] !== undefined && req.headers['content-encoding'].trim().toLowerCase() !== 'identity';
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

/**
 * The most of a refused body the mock reads and drops before it answers 413. A client that sends its whole body
 * before it reads (fetch, undici) would otherwise get a reset, not the 413: the answer goes out with Connection:
 * close, and closing a socket with unread bytes sends a TCP RST (RFC 9112 §9.6 asks for a lingering close). Past
 * this, the answer goes at once.
 */
const MAX_DISCARDED_BYTES = 64 * 1024 * 1024;

// Reads the rest of a refused body and drops it, then refuses it; at once if it goes on past MAX_DISCARDED_BYTES.
function discard(req: IncomingMessage, alreadyRead: number, maxBytes: number): Promise<never> {
  // Known now, before the rest of the body is read: the requests that follow it in the same packet are not acted on.
  markClosing(req.socket);
  return new Promise((_, reject) => {
    let size = alreadyRead;
    const refuse = () => reject(tooLarge(maxBytes));
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size <= MAX_DISCARDED_BYTES) return;
      req.removeAllListeners('data');
      req.pause();
      refuse();
    });
    req.on('end', refuse);
    req.on('error', () => reject(mockError('request_incomplete')));
    req.on('aborted', () => reject(mockError('request_incomplete')));
    req.resume();
  });
}

function tooLarge(maxBytes: number) {
  return mockError('payload_too_large', `the request body is larger than ${maxBytes} bytes`);
}
