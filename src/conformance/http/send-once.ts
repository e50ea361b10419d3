import { isUtf8 } from 'node:buffer';
import type { Dispatcher } from 'undici';
import { collectGarbage } from './collect-garbage.js';
import { type DecodedBody, decodeContent } from './decode-content.js';
import type { SentRequest, TransportError } from './exchange.js';
import type { Gate } from './create-gate.js';
import { bytesReadBefore } from './note-bytes-read.js';

export interface RawAnswer {
  readonly status: number;
  /** As undici parsed them: lower-case names, a repeated header as an array. */
  readonly headers: Readonly<Record<string, string | string[] | undefined>>;
  /** The whole body, content codings undone, as UTF-8, a leading byte order mark dropped (as undici's body.text() does). */
  readonly text: string;
  /** The body began with a UTF-8 byte order mark, which `text` leaves out. */
  readonly byteOrderMark: boolean;
  /** Some bytes of the body are not UTF-8: `text` shows each as U+FFFD. */
  readonly invalidUtf8: boolean;
}

export interface Limits {
  /** A deadline from the moment the request is handed to undici, connection set-up and queueing included. */
  readonly timeoutMs: number;
  /** The most bytes of body read, before and after content codings are undone. */
  readonly maxResponseBytes: number;
  /**
   * Past `bytes` of body, an answer is read on only once `enter` lets it in, and holds its place until it is
   * settled. The time spent waiting is the runner's, not the target's: the deadline moves by as much.
   */
  readonly large?: { readonly bytes: number; readonly enter: Gate };
}

/**
 * One request through undici's dispatch API, the body collected whole. `request()` would wrap every answer in a
 * stream and an async resource that a runner reading whole bodies never needs: on a loopback run that is a
 * quarter of the client's CPU (bench/measure-runner.ts). Resolves with the answer, content codings undone, or a
 * TransportError: at the deadline, on a connection failure, for a body over the size cap or one that does not
 * decode. Rejects with undici's own error when it refuses the request itself
 * (code UND_ERR_INVALID_ARG), which the caller words.
 */
export function sendOnce(dispatcher: Dispatcher, outgoing: SentRequest, limits: Limits): Promise<RawAnswer | TransportError> {
  const { timeoutMs, maxResponseBytes, large } = limits;
  const sentAt = performance.now();
  // Time spent waiting for the large-answer gate, which the deadline does not count.
  let waited = 0;
  const elapsed = () => performance.now() - sentAt - waited;
  const late = (): TransportError => ({ kind: 'timeout', message: `no complete answer within ${timeoutMs} ms` });
  return new Promise((resolve, reject) => {
    let settled = false;
    let controller: Dispatcher.DispatchController | undefined;
    let answer: Pick<RawAnswer, 'status' | 'headers'> | undefined;
    const chunks: Buffer[] = [];
    let received = 0;
    let gate: 'outside' | 'waiting' | (() => void) = 'outside';
    const settle = (outcome: () => void) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      if (typeof gate === 'function') gate();
      outcome();
    };
    // At the deadline the step ends even if the request is still waiting for a connection; it is aborted as
    // soon as undici hands it a socket.
    const expire = () => {
      settle(() => resolve(late()));
      controller?.abort(new Error('timed out'));
    };
    let timer = setTimeout(expire, timeoutMs);
    const waitAtGate = (enter: Gate, then: () => void) => {
      if (settled) return;
      gate = 'waiting';
      clearTimeout(timer);
      const from = performance.now();
      enter().then((leave) => {
        gate = leave;
        if (settled) return leave();
        waited += performance.now() - from;
        timer = setTimeout(expire, Math.max(0, timeoutMs - elapsed()));
        // What the previous large answer left (its bytes, its text, its tree) is garbage by now: collected before
        // this one is read on, whatever becomes of it (parsed, or refused as too many values without a parse).
        collectGarbage();
        then();
      });
    };
    const tooLarge = (message: string) => {
      settle(() => resolve({ kind: 'too-large', message, status: answer?.status }));
      // Dropping the connection is the only way to stop a sender that is still sending.
      controller?.abort(new Error('answer too large'));
    };
    const handler: Dispatcher.DispatchHandler = {
      onRequestStart(started) {
        controller = started;
        if (settled) started.abort(new Error('timed out'));
      },
      onResponseStart(_, status, headers) {
        // RFC 9110 §15.2: a client must accept 1xx answers it did not ask for; they come first and are not the
        // answer. undici hands 102 and 103 here; an unsolicited 100 never reaches it (skip-unsolicited-continue.ts).
        if (status >= 200) answer = { status, headers };
      },
      onResponseData(_, chunk) {
        // After the deadline or the cap, what is still in flight before the abort takes effect is dropped.
        if (settled) return;
        received += chunk.length;
        if (received > maxResponseBytes) {
          return tooLarge(`the body is more than --max-response-bytes (${maxResponseBytes} bytes); it was read no further`);
        }
        chunks.push(chunk);
        if (large && gate === 'outside' && received > large.bytes) {
          controller?.pause();
          waitAtGate(large.enter, () => controller?.resume());
        }
      },
      onResponseEnd() {
        if (settled) return;
        // A busy process may read an answer before it runs the timer that should have ended the wait: the
        // timestamps decide, not which callback ran first.
        if (elapsed() > timeoutMs) return settle(() => resolve(late()));
        const { status, headers } = answer ?? { status: 0, headers: {} };
        const body = chunks.length === 1 ? (chunks[0] as Buffer) : Buffer.concat(chunks);
        chunks.length = 0;
        const deliver = (decoded: DecodedBody) => {
          if (!Buffer.isBuffer(decoded)) return settle(() => resolve({ kind: decoded.kind, message: decoded.problem, status }));
          if (elapsed() > timeoutMs) return settle(() => resolve(late()));
          settle(() =>
            resolve({
              status,
              headers,
              text: toText(decoded),
              byteOrderMark: startsWithBom(decoded),
              invalidUtf8: !isUtf8(decoded),
            }),
          );
        };
        // Most answers have no coding to undo: no promise and no turn of the event loop for them.
        const coding = headers['content-encoding'];
        if (coding === undefined) return deliver(body);
        const decode = (cap: number) => decodeContent(body, coding, cap);
        if (!large || gate !== 'outside' || maxResponseBytes <= large.bytes) return void decode(maxResponseBytes).then(deliver);
        // A few KiB of gzip can decode to the cap: what the gate bounds is the decoded body, not the bytes read.
        // Decoding first only as far as the gate's size lets a small coded answer pass without waiting behind a
        // large one; a larger one is decoded again once inside (its first MiB twice, a millisecond or two).
        decode(large.bytes).then((trial) => {
          if (Buffer.isBuffer(trial) || trial.kind !== 'too-large') return deliver(trial);
          waitAtGate(large.enter, () => void decode(maxResponseBytes).then(deliver));
        });
      },
      onResponseError(_, error) {
        if ((error as { code?: string }).code === 'UND_ERR_INVALID_ARG') settle(() => reject(error));
        else {
          const code = errorCode(error);
          // A status line came first: the target answered, and its answer broke off or broke HTTP's framing.
          const failure = {
            kind: 'connection' as const,
            message: answer ? `${describeError(error)}${noContentNote(answer)}` : describeError(error),
            ...(code === undefined ? {} : { code }),
            ...(answer ? { status: answer.status } : {}),
          };
          settle(() => resolve({ ...failure, ...(closedWhileIdle(error, answer) ? { idleClose: true } : {}) }));
        }
      },
    };
    try {
      const url = new URL(outgoing.url);
      dispatcher.dispatch(
        {
          origin: url.origin,
          path: `${url.pathname}${url.search}`,
          method: outgoing.method as 'GET',
          headers: outgoing.headers,
          body: outgoing.body ?? null,
        },
        handler,
      );
    } catch (error) {
      settle(() => reject(error));
    }
  });
}

/**
 * The target closed a kept-alive connection as this request went out on it: no byte of this answer came, but the
 * connection had carried answers before. A server may close an idle connection at any time (RFC 9112 §9.6), and
 * one that does so without a Keep-Alive hint races the next request, which it then never reads.
 */
function closedWhileIdle(error: unknown, answer: unknown): boolean {
  const code = (error as { code?: string }).code;
  return answer === undefined && code !== undefined && CLOSED.has(code) && (bytesReadBefore(error) ?? 0) > 0;
}

// How a connection the target closed or reset as a request went out fails it.
const CLOSED = new Set(['UND_ERR_SOCKET', 'ECONNRESET', 'EPIPE']);

export function isTransportError(outcome: RawAnswer | TransportError): outcome is TransportError {
  return 'kind' in outcome;
}

function toText(bytes: Buffer): string {
  return bytes.toString('utf8', startsWithBom(bytes) ? 3 : 0);
}

export function startsWithBom(bytes: Buffer): boolean {
  return bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf;
}

// undici wraps the socket error: the cause carries the code people recognise (ECONNREFUSED, ECONNRESET). The
// code stays in the message, after what it means in words: a QA engineer reads the words, a search finds the code.
export function describeError(error: unknown): string {
  const cause = (error as { cause?: { code?: string; message?: string } }).cause;
  const code = errorCode(error);
  const detail = cause?.code
    ? `${cause.code}: ${cause.message ?? ''}`.trim()
    : code
      ? `${code}: ${(error as Error).message}`
      : String((error as Error)?.message ?? error);
  const words =
    code === undefined
      ? undefined
      : (IN_WORDS[code] ?? (code.startsWith('HPE_') ? 'the answer is not valid HTTP/1.1' : undefined));
  return words ? `${words} (${detail})` : detail;
}

// RFC 9110 §8.6 and §15.3.5: a 204 has no content and a server MUST NOT send Content-Length in one; a client reads
// it as ended at its header section, and the announced bytes never fit.
function noContentNote({ status, headers }: Pick<RawAnswer, 'status' | 'headers'>): string {
  const length = headers['content-length'];
  return status === 204 && length !== undefined && length !== '0'
    ? `: a 204 announced content (Content-Length: ${String(length)}), which RFC 9110 §8.6 forbids`
    : '';
}

function errorCode(error: unknown): string | undefined {
  return (error as { cause?: { code?: string } }).cause?.code ?? (error as { code?: string }).code;
}

const IN_WORDS: Readonly<Record<string, string>> = {
  ECONNREFUSED: 'nothing accepted the connection',
  ECONNRESET: 'the target reset the connection',
  EPIPE: 'the target closed the connection while the request was being sent',
  UND_ERR_SOCKET: 'the target closed the connection before the answer was complete',
  UND_ERR_CONNECT_TIMEOUT: 'the connection could not be opened in time',
  UND_ERR_HEADERS_OVERFLOW: "the answer's header block is larger than a client reads",
  UND_ERR_RES_CONTENT_LENGTH_MISMATCH: 'the body is not as long as its Content-Length says',
};
