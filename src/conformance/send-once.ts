import type { Dispatcher } from 'undici';
import type { TransportError } from './exchange.js';

export interface RawAnswer {
  readonly status: number;
  /** As undici parsed them: lower-case names, a repeated header as an array. */
  readonly headers: Readonly<Record<string, string | string[] | undefined>>;
  /** The whole body as UTF-8, a leading byte order mark dropped (as undici's body.text() does). */
  readonly text: string;
}

export interface OneRequest {
  readonly method: string;
  readonly url: string;
  readonly headers: Readonly<Record<string, string>>;
  readonly body: string | undefined;
}

/**
 * One request through undici's dispatch API, the body collected whole. `request()` would wrap every answer in a
 * stream and an async resource that a runner reading whole bodies never needs: on a loopback run that is a
 * quarter of the client's CPU (bench/measure-runner.ts). Resolves with the answer or a TransportError at the
 * deadline or on a connection failure; rejects with undici's own error when it refuses the request itself
 * (code UND_ERR_INVALID_ARG), which the caller words.
 */
export function sendOnce(dispatcher: Dispatcher, outgoing: OneRequest, timeoutMs: number): Promise<RawAnswer | TransportError> {
  return new Promise((resolve, reject) => {
    let settled = false;
    let controller: { abort(reason: Error): void } | undefined;
    let answer: Omit<RawAnswer, 'text'> | undefined;
    const chunks: Buffer[] = [];
    const settle = (outcome: () => void) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      outcome();
    };
    // At the deadline the step ends even if the request is still waiting for a connection; it is aborted as
    // soon as undici hands it a socket.
    const timer = setTimeout(() => {
      settle(() => resolve({ kind: 'timeout', message: `no complete answer within ${timeoutMs} ms` }));
      controller?.abort(new Error('timed out'));
    }, timeoutMs);
    const handler: Dispatcher.DispatchHandler = {
      onRequestStart(started) {
        controller = started;
        if (settled) started.abort(new Error('timed out'));
      },
      onResponseStart(_, status, headers) {
        // 1xx answers come first and are not the answer.
        if (status >= 200) answer = { status, headers };
      },
      onResponseData(_, chunk) {
        chunks.push(chunk);
      },
      onResponseEnd() {
        const { status, headers } = answer ?? { status: 0, headers: {} };
        settle(() => resolve({ status, headers, text: decode(chunks) }));
      },
      onResponseError(_, error) {
        if ((error as { code?: string }).code === 'UND_ERR_INVALID_ARG') settle(() => reject(error));
        else settle(() => resolve({ kind: 'connection', message: describe(error) }));
      },
    };
    try {
      const url = new URL(outgoing.url);
      dispatcher.dispatch(
        { origin: url.origin, path: `${url.pathname}${url.search}`, method: outgoing.method as 'GET', headers: outgoing.headers, body: outgoing.body ?? null },
        handler,
      );
    } catch (error) {
      settle(() => reject(error));
    }
  });
}

export function isTransportError(outcome: RawAnswer | TransportError): outcome is TransportError {
  return 'kind' in outcome;
}

function decode(chunks: readonly Buffer[]): string {
  const bytes = chunks.length === 1 ? (chunks[0] as Buffer) : Buffer.concat(chunks);
  const bom = bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf ? 3 : 0;
  return bytes.toString('utf8', bom);
}

// undici wraps the socket error: the cause carries the code people recognise (ECONNREFUSED, ECONNRESET).
function describe(error: unknown): string {
  const cause = (error as { cause?: { code?: string; message?: string } }).cause;
  const code = (error as { code?: string }).code;
  if (cause?.code) return `${cause.code}: ${cause.message ?? ''}`.trim();
  return code ? `${code}: ${(error as Error).message}` : String((error as Error)?.message ?? error);
}
