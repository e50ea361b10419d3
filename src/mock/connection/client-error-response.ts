import { maxHeaderSize, STATUS_CODES } from 'node:http';
import type { Duplex } from 'node:stream';
import { type ErrorCode, errorBody, statusOf } from '../error-codes.js';
import type { MockResponse } from '../handler.js';
import { NO_SNIFF } from './no-sniff.js';

/** What Node's HTTP parser hands a 'clientError' listener: llhttp's code and its fixed wording of the fault. */
export type ClientError = Error & { readonly code?: string; readonly reason?: string };

export interface Deadlines {
  readonly headersTimeoutMs: number;
  readonly requestTimeoutMs: number;
}

// Node's codes with their own status; every other parser error (a bad request line, method, header, Content-Length
// or chunk, Content-Length with Transfer-Encoding) is a request that is not HTTP/1.1: a 400.
const BY_NODE_CODE: Readonly<Record<string, ErrorCode>> = {
  HPE_HEADER_OVERFLOW: 'headers_too_large',
  ERR_HTTP_REQUEST_TIMEOUT: 'request_timeout',
  // The client ended its side before the body's declared end (Content-Length, or a chunked body's last chunk).
  HPE_INVALID_EOF_STATE: 'request_incomplete',
  // PRI * HTTP/2.0: the connection preface of an HTTP/2 client that assumed the mock speaks it (h2c, prior knowledge).
  HPE_PAUSED_H2_UPGRADE: 'http_version_not_supported',
};

/**
 * The Error answer to a request Node's parser refused or timed out. The message is made from llhttp's own
 * wording and the limits, never from the received bytes (they may hold an Authorization header).
 */
export function clientErrorResponse(error: ClientError, deadlines: Deadlines): MockResponse {
  const code = BY_NODE_CODE[error.code ?? ''] ?? 'malformed_request';
  const message =
    code === 'headers_too_large'
      ? `the request headers are larger than ${maxHeaderSize} bytes`
      : code === 'request_timeout'
        ? `the request did not arrive in time: its headers must arrive within ${deadlines.headersTimeoutMs} ms and the whole request within ${deadlines.requestTimeoutMs} ms`
        : code === 'request_incomplete'
          ? 'body: the request ended before its whole body arrived (the client closed its side of the connection)'
          : code === 'http_version_not_supported'
            ? 'the request is the connection preface of HTTP/2 (PRI * HTTP/2.0): the mock speaks HTTP/1.1 (and HTTP/1.0)'
            : `the request is not valid HTTP/1.1: ${error.reason ?? error.code ?? error.message}`;
  return { status: statusOf(code), body: errorBody(code, message), headers: { Connection: 'close' }, errorCode: code };
}

/** Writes a whole HTTP/1.1 answer on a socket no ServerResponse owns, then closes it: the parser cannot go on. */
export function writeRawResponse(socket: Duplex, response: MockResponse): void {
  const head = [
    `HTTP/1.1 ${response.status} ${STATUS_CODES[response.status] ?? ''}`,
    'Content-Type: application/json',
    `${NO_SNIFF[0]}: ${NO_SNIFF[1]}`,
    `Content-Length: ${Buffer.byteLength(response.body)}`,
    'Connection: close',
  ];
  socket.end(`${head.join('\r\n')}\r\n\r\n${response.body}`);
}
