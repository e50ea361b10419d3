import type { Dispatcher } from 'undici';
import { AppError, isAppError } from '../../contract/app-error.js';
import { dispatcherFactory, proxyCredentials, tlsOptions } from './create-dispatcher.js';
import { proxyFor } from './proxy-for.js';
import { sendRaw } from './send-raw.js';
import { secretHeaderValues } from './secret-headers.js';
import { createRateLimiter } from './create-rate-limiter.js';
import { createRedactor, type Redactor } from '../../shared/create-redactor.js';
import { cookiePairs } from '../../shared/cookie-pairs.js';
import { maskHeader, maskUrlCredentials } from '../../shared/mask-credentials.js';
import { isTransportError, type Limits, sendOnce } from './send-once.js';
import { createGate, type Gate } from './create-gate.js';
import type { RunDeadline } from '../create-run-bounds.js';
import { handshakeFails } from './handshake-problem.js';
import { RATE_LIMIT_RESENDS, rateLimitWait } from './rate-limit-wait.js';
import { receivedResponse } from './received-response.js';
import { LARGE_ANSWER_CHARS } from './collect-garbage.js';
import { countJsonValues } from './count-json-values.js';
import {
  type AfterHead,
  type Exchange,
  REDACTED_BEARER,
  type SentCredential,
  type ReceivedResponse,
  type SentRequest,
  type TransportError,
} from './exchange.js';

export interface HttpClientOptions {
  /** The run's key: sent as given, recorded as `Bearer ***` and redacted from everything recorded. */
  readonly token: string | undefined;
  readonly timeoutMs: number;
  readonly connections: number;
  readonly rateLimit: number | undefined;
  /** Extra attempts after a connection error, for idempotent methods only. */
  readonly retries?: number;
  /** Sent with every request (-H), unless the request sets the same header itself. */
  readonly headers?: Readonly<Record<string, string>>;
  /** Other credentials the run sends (a scenario's `{{env.NAME}}` in a credential header): redacted like the key. */
  readonly secrets?: readonly string[];
  /** TLS: accept any certificate (--insecure), or trust this PEM bundle besides the system's (--ca). */
  readonly insecure?: boolean;
  readonly ca?: string;
  /** A larger answer is read no further and is a transport error (--max-response-bytes); default 10 MiB. */
  readonly maxResponseBytes?: number;
  /** Told of each request sent again after a 429 (rate-limit-wait.ts), with the time waited before it. */
  readonly onRateLimited?: (waitedMs: number) => void;
  /** The run's end (--deadline): a 429's wait that would end past it is not waited for. */
  readonly deadline?: RunDeadline;
}

export const DEFAULT_MAX_RESPONSE_BYTES = 10 * 1024 * 1024;

/**
 * A body's tree of values, not its text, is what takes memory: `[{},{},…]` is 3 bytes a value in the text and
 * about 70 in the heap, so a 10 MiB body of them is 234 MB of objects. The cap on values follows the cap on
 * bytes (a 10 MiB body may hold about a million values: a list of 150,000 pets fits), and keeps one tree under
 * about 70 MB whatever its shape.
 */
const BYTES_PER_VALUE = 10;

function maxJsonValues(maxResponseBytes: number): number {
  return Math.max(1000, Math.floor(maxResponseBytes / BYTES_PER_VALUE));
}

/** A credential placed in a request: the value at its place, as sent and as recorded. */
export interface PlacedCredential extends SentCredential {
  /** The value at its place as sent (a header's whole value, a query parameter's or a cookie's value). */
  readonly sent: string | undefined;
}

/** A request to send: what is recorded, and how the credential the runner placed is shown. */
export interface OutgoingRequest extends SentRequest {
  /**
   * The credential the runner placed, by the operation's security scheme: recorded as `shown` where it stands (the
   * run's key as `Bearer ***` or `***`, one made from it by its description). A step's own header in its place,
   * which may carry a scenario's {{env.NAME}}, is masked by position instead.
   */
  readonly credential?: PlacedCredential;
  /**
   * Sent on a socket of its own and read byte by byte (send-raw.ts), so that bytes after an answer that can have no
   * content are seen (Exchange.afterHead). Through a proxy it goes as any other request, and says so.
   */
  readonly raw?: boolean;
}

export interface HttpClient {
  /**
   * Rejects with AppError('request_invalid') when the request cannot be put on the wire at all. The exchange is
   * raw but for the run's credentials (recorded as `Bearer ***`, `***`) and its error messages: pass what is
   * shown through `redact`. Rejects with AppError('deadline_reached') when a 429 asks for a wait that would end
   * past the run's deadline: the request cannot be sent again within the run.
   */
  send(outgoing: OutgoingRequest): Promise<Exchange>;
  /**
   * Replaces the run's key, every -H credential, the proxy's password and `secrets`, in any encoding, when at
   * least SHORTEST_REDACTED_SECRET characters long (create-redactor.ts): for target text. Where a credential is
   * sent, it is masked by position whatever its length.
   */
  readonly redact: Redactor;
  /** The same, and any run of 4 of their characters: for what is quoted from an exchange that held one. */
  readonly redactPieces: Redactor;
  /**
   * A client with the same settings over one connection of its own, opened on its first request: its requests
   * go one after another on that connection while it stays open (a case that tests auth on a kept-alive
   * connection), and close() ends it.
   */
  dedicated(): HttpClient;
  close(): Promise<void>;
}

// RFC 9110 §9.2.2: a retried idempotent request has the same effect as one. POST is never retried: a lost
// answer may still have created a pet.
const IDEMPOTENT = new Set(['GET', 'HEAD', 'OPTIONS', 'PUT', 'DELETE', 'TRACE']);
const RETRY_DELAYS_MS = [100, 400, 1000];

/** The one module every request of a run goes through: keep-alive, timeout, bodies always read, key redacted. */
export function createHttpClient(options: HttpClientOptions): HttpClient {
  const waitForSlot = createRateLimiter(options.rateLimit);
  const open = dispatcherFactory(options);
  const secrets = [
    options.token,
    ...secretHeaderValues(options.headers),
    ...(options.secrets ?? []),
    ...proxyCredentials(process.env),
  ];
  const redact = createRedactor(secrets);
  const redactPieces = createRedactor(secrets, { pieces: true });
  // Run-wide: cases on connections of their own share it. One large answer is read and judged at a time, so
  // memory holds one, whatever the concurrency.
  const large = { bytes: LARGE_ANSWER_CHARS, enter: createGate(1) };
  // Run-wide too: the pool's connections, and those of cases with a connection of their own, carry at most
  // `connections` requests at a time between them, however many a case sends at once (a burst, a page's filler).
  const onTheWire = createGate(Math.max(1, options.connections));
  return clientOver(open(Math.max(1, options.connections)), {
    options,
    waitForSlot,
    onTheWire,
    open,
    redact,
    redactPieces,
    large,
    tls: tlsOptions(options),
    refusedInARow: { count: 0 },
  });
}

interface ClientParts {
  readonly options: HttpClientOptions;
  readonly waitForSlot: ReturnType<typeof createRateLimiter>;
  readonly onTheWire: Gate;
  readonly open: (connections: number) => Dispatcher;
  readonly redact: Redactor;
  readonly redactPieces: Redactor;
  readonly large: Limits['large'];
  readonly tls: ReturnType<typeof tlsOptions>;
  /** Requests, run-wide, still refused with 429 after every resend since one was answered (RATE_LIMIT_GIVE_UP). */
  readonly refusedInARow: { count: number };
}

// A target that answers 429 to everything, with no Retry-After (or one that is no number or date), made each
// request wait 15.75 s over 6 resends: hours for a run. Once this many requests were still refused after all of
// theirs, with no resend answered otherwise in between, a 429 is judged as the answer at once.
const RATE_LIMIT_GIVE_UP = 3;

function clientOver(dispatcher: Dispatcher, parts: ClientParts): HttpClient {
  const { options, waitForSlot, onTheWire, redact } = parts;
  const retries = options.retries ?? 2;
  const bearer = options.token === undefined ? undefined : `Bearer ${options.token}`;
  const extraHeaders = Object.entries(options.headers ?? {}).map(([name, value]) => [name.toLowerCase(), value] as const);
  const limits: Limits = {
    timeoutMs: options.timeoutMs,
    maxResponseBytes: options.maxResponseBytes ?? DEFAULT_MAX_RESPONSE_BYTES,
    large: parts.large,
  };
  const maxValues = maxJsonValues(limits.maxResponseBytes);

  // Credentials are recorded masked by position here (the run's key as `Bearer ***`, any other Authorization as
  // its scheme and ***, every header named as a credential as ***), and nowhere as sent; the rest is recorded as
  // sent and redacted by value when shown (redact-exchange.ts).
  const record = (outgoing: OutgoingRequest): SentRequest => {
    const headers: Record<string, string> = {};
    const { credential } = outgoing;
    const spot = credential?.sent === undefined ? undefined : credentialSpot(credential);
    for (const name in outgoing.headers) {
      const value = outgoing.headers[name] as string;
      if (spot !== undefined && name === spot.header && value === spot.sent) headers[name] = spot.shown;
      else if (name === 'authorization' && value === bearer) headers[name] = REDACTED_BEARER;
      else headers[name] = maskHeader(name, value);
    }
    // build-request puts a key in the query last: masked by position, whatever the parameter's name.
    const url =
      spot?.query !== undefined && outgoing.url.endsWith(spot.query)
        ? `${outgoing.url.slice(0, -spot.query.length)}${spot.shown}`
        : outgoing.url;
    const sent =
      credential === undefined
        ? undefined
        : { placement: credential.placement, shown: credential.shown, runKey: credential.runKey };
    return { method: outgoing.method, url, headers, body: outgoing.body, ...(sent === undefined ? {} : { credential: sent }) };
  };

  // `waits.ms` adds up the time spent behind the run's own requests, which is not the target's time.
  async function attempt(
    outgoing: OutgoingRequest,
    waits: { ms: number },
    over: Dispatcher = dispatcher,
  ): Promise<{ response?: ReceivedResponse; error?: TransportError; afterHead?: AfterHead }> {
    let outcome: Awaited<ReturnType<typeof sendOnce>> & { afterHead?: AfterHead };
    const proxy = outgoing.raw ? proxyFor(new URL(outgoing.url), process.env) : undefined;
    const queued = performance.now();
    // --rate-limit's slot and a free connection: both are the run's own pace, not the target's time.
    if (waitForSlot) await waitForSlot();
    const leave = await onTheWire();
    waits.ms += performance.now() - queued;
    try {
      outcome =
        outgoing.raw && proxy === undefined ? await sendRaw(outgoing, limits, parts.tls) : await sendOnce(over, outgoing, limits);
    } catch (error) {
      if (isAppError(error)) throw error;
      // undici refused to send it (a header value with a line break, say): the step's fault, not the target's,
      // and sending it again would only fail again.
      throw new AppError(
        'request_invalid',
        `the request could not be sent: ${redact(maskUrlCredentials((error as Error).message))}`,
      );
    } finally {
      leave();
    }
    if (isTransportError(outcome)) return { error: { ...outcome, message: redact(maskUrlCredentials(outcome.message)) } };
    const { text } = outcome;
    if (text.length >= LARGE_ANSWER_CHARS && countJsonValues(text, maxValues) > maxValues) {
      return {
        error: {
          kind: 'too-large',
          status: outcome.status,
          message: `the body holds more than ${maxValues} JSON values (--max-response-bytes ${limits.maxResponseBytes} allows one per ${BYTES_PER_VALUE} bytes); it was not parsed`,
        },
      };
    }
    // A session the target sets (Set-Cookie), or a token it hands out in a header, is recorded masked: checks
    // judge names and attributes, never a credential's value, and reports are read by anyone with the artifacts.
    const headers: Record<string, string> = {};
    for (const name in outcome.headers) {
      const value = outcome.headers[name];
      if (value !== undefined)
        headers[name] = Array.isArray(value) ? value.map((one) => maskHeader(name, one)).join(', ') : maskHeader(name, value);
    }
    const response = receivedResponse(outcome.status, headers, text, outcome.byteOrderMark, outcome.invalidUtf8);
    // A proxy answers with framing of its own: what the target sent after its header block never reaches the run.
    const afterHead = proxy === undefined ? outcome.afterHead : { unread: 'the run reaches the target through a proxy' };
    return afterHead === undefined ? { response } : { response, afterHead };
  }

  return {
    async send(request) {
      const outgoing = withExtraHeaders(request, extraHeaders);
      const started = performance.now();
      const waits = { ms: 0 };
      let result = await attempt(outgoing, waits);
      // Any request, a POST too, is sent once more when the target closed its kept-alive connection as it went out:
      // no byte of an answer came back on a connection that had answered before, so it was most likely never read.
      // Once more on a connection of its own, at once: the pool's other connections may be closing the same way
      // (a server that closes each connection after its answer), and a new one has carried nothing to close after.
      if (result.error?.idleClose) {
        const fresh = parts.open(1);
        result = await attempt(outgoing, waits, fresh);
        end(fresh).catch(() => {});
      }
      for (let i = 0; i < retries && retriable(result.error) && IDEMPOTENT.has(outgoing.method); i++) {
        await new Promise((resolve) => setTimeout(resolve, RETRY_DELAYS_MS[i] ?? 1000));
        result = await attempt(outgoing, waits);
      }
      // The contract leaves rate limits open ("Rate limits: not shown"): a 429 (RFC 6585 §4) refused the request
      // without acting on it, and it is sent again once the wait it asks for is over. The wait is not the target's
      // answer time.
      const { refusedInARow } = parts;
      let resends = 0;
      for (; result.response?.status === 429 && refusedInARow.count < RATE_LIMIT_GIVE_UP; resends++) {
        const wait = rateLimitWait(result.response.headers['retry-after'], resends);
        if (wait === undefined && resends === RATE_LIMIT_RESENDS) refusedInARow.count++;
        if (wait === undefined) break;
        if (options.deadline && performance.now() + wait > options.deadline.at) {
          throw new AppError(
            'deadline_reached',
            `--deadline ${options.deadline.name} reached: a 429 Too Many Requests asked for a wait that ends past it`,
          );
        }
        options.onRateLimited?.(wait);
        await new Promise((resolve) => setTimeout(resolve, wait));
        waits.ms += wait;
        result = await attempt(outgoing, waits);
      }
      if (resends > 0 && result.response !== undefined && result.response.status !== 429) refusedInARow.count = 0;
      const sent = record(outgoing);
      return {
        request: sent,
        response: result.response,
        error: result.error,
        elapsedMs: performance.now() - started - waits.ms,
        ...(result.afterHead === undefined ? {} : { afterHead: result.afterHead }),
      };
    },
    redact,
    redactPieces: parts.redactPieces,
    dedicated: () => {
      const own = parts.open(1);
      return { ...clientOver(own, parts), close: () => end(own) };
    },
    close: () => dispatcher.close(),
  };
}

// A connection that failed on its way may get through again; a handshake refused for its certificate, or answered
// in plain HTTP, fails again.
function retriable(error: TransportError | undefined): boolean {
  return error?.kind === 'connection' && !misframed(error) && !handshakeFails(error.code);
}

/**
 * An answer that came, status line and all, and broke HTTP/1.1's framing (a 204 announcing content, bytes that are not
 * HTTP): the target acted on the request and will answer the same way again. It is the finding, not sent again: a
 * resent DELETE would be judged by its 404. A connection cut mid-body is still sent again: that may be the network.
 */
function misframed(error: TransportError): boolean {
  return (
    error.status !== undefined &&
    error.code !== undefined &&
    (error.code === 'UND_ERR_RES_CONTENT_LENGTH_MISMATCH' || error.code.startsWith('HPE_'))
  );
}

/**
 * Ends a connection opened for one case or one resend, once its answers are in. undici's close() makes an error,
 * stack trace and all, for every connection it ends, and waits on it: a run opens about 80 such connections, and
 * this made a run against the mock about a tenth slower. destroy() with one error made beforehand skips both;
 * with nothing in flight it ends the connection as close() would.
 */
function end(dispatcher: Dispatcher): Promise<void> {
  return dispatcher.destroy(ENDED);
}

const ENDED = new Error('the connection was ended by the runner: its case had no request left to send');

// -H headers go on every request; a header the step sets itself wins (names compare case-insensitively).
/**
 * Where a placed credential stands in the request as sent, and what is recorded there: a header's whole value, or
 * the query's last `name=value` (the recorded URL keeps `name=` and shows the rest).
 */
function credentialSpot(credential: PlacedCredential): { header?: string; query?: string; sent: string; shown: string } {
  const { placement } = credential;
  const sent = credential.sent as string;
  const shown = credential.shown ?? '';
  if (placement.scheme !== 'apiKey') return { header: 'authorization', sent, shown };
  if (placement.in === 'header') return { header: placement.name.toLowerCase(), sent, shown };
  if (placement.in === 'cookie')
    return { header: 'cookie', sent: `${placement.name}=${sent}`, shown: `${placement.name}=${shown}` };
  const name = new URLSearchParams([[placement.name, '']]).toString();
  return { query: `${new URLSearchParams([[placement.name, sent]])}`, sent, shown: `${name}${shown}` };
}

function withExtraHeaders(outgoing: OutgoingRequest, extra: readonly (readonly [string, string])[]): OutgoingRequest {
  if (extra.length === 0) return outgoing;
  const own = new Set(Object.keys(outgoing.headers).map((name) => name.toLowerCase()));
  const added = extra.filter(([name]) => !own.has(name));
  // The cookies of -H (a session a gateway needs) go beside the step's own (a cookie parameter, a key), but never
  // one of the same name: a case that sends a key altered must not carry the real one too.
  const ownCookie = Object.keys(outgoing.headers).find((name) => name.toLowerCase() === 'cookie');
  const cookie = ownCookie === undefined ? '' : otherCookies(extra, outgoing.headers[ownCookie] as string);
  if (added.length === 0 && cookie === '') return outgoing;
  const headers = { ...Object.fromEntries(added), ...outgoing.headers };
  if (ownCookie !== undefined && cookie !== '') headers[ownCookie] = `${cookie}; ${outgoing.headers[ownCookie]}`;
  return { ...outgoing, headers };
}

function otherCookies(extra: readonly (readonly [string, string])[], own: string): string {
  const taken = new Set(Object.keys(cookiePairs(own)));
  const given = extra.find(([name]) => name === 'cookie')?.[1];
  if (given === undefined) return '';
  return given
    .split(';')
    .filter((pair) => pair.includes('=') && !taken.has(pair.slice(0, pair.indexOf('=')).trim()))
    .map((pair) => pair.trim())
    .join('; ');
}
