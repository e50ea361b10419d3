import { isUtf8 } from 'node:buffer';
import { maxHeaderSize } from 'node:http';
import { isIP, type Socket, connect as connectTcp } from 'node:net';
import { type ConnectionOptions, connect as connectTls } from 'node:tls';
import { AppError } from '../../contract/app-error.js';
import type { AfterHead, SentRequest, TransportError } from './exchange.js';
import { describeError, type RawAnswer, startsWithBom } from './send-once.js';

export interface RawLimits {
  readonly timeoutMs: number;
  readonly maxResponseBytes: number;
}

export interface RawAnswerWithEnd extends RawAnswer {
  readonly afterHead: AfterHead;
}

// After an answer's header block, how long the socket may stay silent before the answer is taken as ended: the
// request asks the target to close (Connection: close), and one that keeps the connection open anyway is not held.
const QUIET_MS = 250;
// What is read of a body here: the answer is judged by its status and its end, not its content.
const MAX_BODY_BYTES = 64 * 1024;
const STRAY_SHOWN_BYTES = 200;

/**
 * One request on a socket of its own, the answer read byte by byte: undici takes an answer that can have no content
 * (to HEAD; a 1xx, 204 or 304, RFC 9112 §6.3) as ended at its header block and never sees bytes a broken server
 * writes after it, which corrupt the next answer on a kept-alive connection. Here they are counted. The body of
 * any other answer is read only as far as its Content-Length, the close or a short silence, and is not decoded.
 * Throws AppError('request_invalid') for a header HTTP/1.1 cannot carry.
 */
export function sendRaw(
  outgoing: SentRequest,
  limits: RawLimits,
  tls: Pick<ConnectionOptions, 'rejectUnauthorized' | 'ca'>,
): Promise<RawAnswerWithEnd | TransportError> {
  const url = new URL(outgoing.url);
  const request = requestBytes(outgoing, url);
  const host = url.hostname.replace(/^\[|\]$/g, '');
  const https = url.protocol === 'https:';
  const port = Number(url.port || (https ? 443 : 80));
  return new Promise((resolve) => {
    const socket: Socket = https
      ? connectTls({ host, port, ...(isIP(host) ? {} : { servername: host }), ...tls })
      : connectTcp({ host, port });
    const chunks: Buffer[] = [];
    let received = 0;
    let head: Head | undefined;
    let settled = false;
    let quiet: NodeJS.Timeout | undefined;
    const finish = (outcome: RawAnswerWithEnd | TransportError) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      clearTimeout(quiet);
      socket.destroy();
      resolve(outcome);
    };
    const failed = (message: string, code?: string): TransportError => ({
      kind: 'connection',
      message,
      ...(code === undefined ? {} : { code }),
    });
    const complete = () => finish(answerOf(head as Head, Buffer.concat(chunks), outgoing.method));
    const timer = setTimeout(
      () => (head ? complete() : finish({ kind: 'timeout', message: `no complete answer within ${limits.timeoutMs} ms` })),
      limits.timeoutMs,
    );
    // A connection the target accepted and then ended without an answer says nothing of the target being gone
    // (watch-target.ts counts the codes of connections that fail): its failure carries no code.
    let connected = false;
    socket.once(https ? 'secureConnect' : 'connect', () => {
      connected = true;
      socket.write(request);
    });
    socket.on('data', (chunk: Buffer) => {
      chunks.push(chunk);
      received += chunk.length;
      if (!head) {
        const found = readHead(Buffer.concat(chunks));
        if (found === 'invalid')
          return finish(failed('the answer is not valid HTTP/1.1 (its status line)', 'HPE_INVALID_CONSTANT'));
        if (found === undefined) {
          if (received > maxHeaderSize)
            finish(failed("the answer's header block is larger than a client reads", 'UND_ERR_HEADERS_OVERFLOW'));
          return;
        }
        head = found;
      }
      const after = received - head.end;
      const length = Number(single(head.headers['content-length']));
      if (after > Math.min(MAX_BODY_BYTES, limits.maxResponseBytes)) return complete();
      if (!noContent(outgoing.method, head.status) && Number.isInteger(length) && after >= length) return complete();
      clearTimeout(quiet);
      quiet = setTimeout(complete, QUIET_MS);
    });
    socket.on('error', (error) =>
      head ? complete() : finish(failed(describeError(error), connected ? undefined : codeOf(error))),
    );
    socket.on('close', () => (head ? complete() : finish(failed('the target closed the connection without an answer'))));
  });
}

interface Head {
  readonly status: number;
  readonly headers: Record<string, string | string[]>;
  /** Where the final answer's header block ends, interim 1xx answers before it included. */
  readonly end: number;
}

// RFC 9112 §6.3: an answer to HEAD, and any 1xx, 204 or 304, ends at the empty line after its header fields.
function noContent(method: string, status: number): boolean {
  return method === 'HEAD' || status === 204 || status === 304 || (status >= 100 && status < 200);
}

const STATUS_LINE = /^HTTP\/1\.[01] (\d{3})(?: [^\r\n]*)?$/;

/** The final answer's status and headers, once its header block is in; interim 1xx answers are passed over. */
function readHead(bytes: Buffer): Head | 'invalid' | undefined {
  for (let from = 0; ; ) {
    const end = bytes.indexOf('\r\n\r\n', from);
    if (end === -1) return undefined;
    const [statusLine = '', ...lines] = bytes.toString('latin1', from, end).split('\r\n');
    const status = Number(STATUS_LINE.exec(statusLine)?.[1]);
    if (!status) return 'invalid';
    // RFC 9110 §15.2: a client must take 1xx answers it did not ask for; 101 would switch protocols, never asked.
    if (status >= 100 && status < 200 && status !== 101) {
      from = end + 4;
      continue;
    }
    const headers: Record<string, string | string[]> = {};
    for (const line of lines) {
      const colon = line.indexOf(':');
      if (colon <= 0) return 'invalid';
      const name = line.slice(0, colon).trim().toLowerCase();
      const value = Buffer.from(line.slice(colon + 1).trim(), 'latin1').toString('utf8');
      const known = headers[name];
      headers[name] = known === undefined ? value : [...[known].flat(), value];
    }
    return { status, headers, end: end + 4 };
  }
}

function answerOf(head: Head, bytes: Buffer, method: string): RawAnswerWithEnd {
  const rest = bytes.subarray(head.end);
  const length = Number(single(head.headers['content-length']));
  const body = noContent(method, head.status) ? Buffer.alloc(0) : Number.isInteger(length) ? rest.subarray(0, length) : rest;
  const afterHead: AfterHead = noContent(method, head.status)
    ? { strayBytes: rest.length, strayStart: rest.subarray(0, STRAY_SHOWN_BYTES).toString('utf8') }
    : {
        unread: `the answer was ${head.status}, which may carry content: there is no end of an answer without content to look past`,
      };
  return {
    status: head.status,
    headers: head.headers,
    text: body.toString('utf8'),
    byteOrderMark: startsWithBom(body),
    invalidUtf8: !isUtf8(body),
    afterHead,
  };
}

function single(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}

// RFC 9110 §5.1, §5.5: a field name is a token; a value holds no CR, LF or NUL.
const TOKEN = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;
const BAD_VALUE = /[\r\n\0]/;

/**
 * The request as written on the wire. The connection is asked to close after the answer (RFC 9112 §9.6), so a
 * correct target ends the answer by closing, and what it sent after the header block is all there.
 */
function requestBytes(outgoing: SentRequest, url: URL): Buffer {
  const lines = [`${outgoing.method} ${url.pathname}${url.search} HTTP/1.1`, `host: ${url.host}`];
  for (const [name, value] of Object.entries(outgoing.headers)) {
    if (!TOKEN.test(name) || BAD_VALUE.test(value)) {
      throw new AppError('request_invalid', `the header ${name} holds what HTTP/1.1 cannot carry`);
    }
    const lower = name.toLowerCase();
    if (lower !== 'host' && lower !== 'connection' && lower !== 'content-length') lines.push(`${name}: ${value}`);
  }
  const body = outgoing.body === undefined ? undefined : Buffer.from(outgoing.body);
  if (body !== undefined) lines.push(`content-length: ${body.length}`);
  lines.push('connection: close');
  const head = Buffer.from(`${lines.join('\r\n')}\r\n\r\n`, 'utf8');
  return body === undefined ? head : Buffer.concat([head, body]);
}

function codeOf(error: unknown): string | undefined {
  const code = (error as { code?: unknown }).code;
  return typeof code === 'string' ? code : undefined;
}
