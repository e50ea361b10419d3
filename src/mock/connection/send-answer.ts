import type { ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import { markClosing } from './closing-connection.js';
import { continueOwed } from './hold-continue.js';
import { errorResponse } from '../error-response.js';
import type { MockResponse } from '../handler.js';
import type { MockContext } from '../mock-context.js';
import { recordExchange } from '../admin/record-exchange.js';
import type { HeaderList, RequestState } from '../request-state.js';
import { NO_SNIFF } from './no-sniff.js';
import { writeBody } from './write-body.js';

/**
 * The last stage. Answers made in one turn of the event loop go out together at its end, not each as soon as it
 * is made: a client on the same machine (an e2e suite, a load generator) is then woken once for the batch, not
 * once per answer. Each wake-up of a sleeping process costs the sender's system call more than the whole answer
 * costs the mock, and more again in a VM (an interrupt between CPUs). Measured with 50 connections creating pets:
 * 51 → 37 µs of the mock's CPU a request. A lone client waits for nothing: the turn ends when its request is done.
 */
export function sendAnswer(state: RequestState, mock: MockContext, response: MockResponse): void {
  const fault = state.fault;
  if ((fault !== undefined && fault !== 'malformed') || closesConnection(state, response)) markClosing(state.req.socket);
  if (queued.length === 0) setImmediate(flushAnswers);
  queued.push(state, mock, response);
}

// One flat array, three entries an answer: no object made per answer. A process may run several mocks.
let queued: (RequestState | MockContext | MockResponse)[] = [];

/** An answer to a request on this connection is made and waits for the end of the turn to be written. */
export function hasQueuedAnswer(socket: Duplex): boolean {
  for (let i = 0; i < queued.length; i += 3) if ((queued[i] as RequestState).req.socket === socket) return true;
  return false;
}

function flushAnswers(): void {
  const batch = queued;
  queued = [];
  for (let i = 0; i < batch.length; i += 3) {
    deliver(batch[i] as RequestState, batch[i + 1] as MockContext, batch[i + 2] as MockResponse);
  }
}

/** The delay and the faults that send nothing, then the answer. */
function deliver(state: RequestState, mock: MockContext, response: MockResponse): void {
  if (state.delayMs > 0) {
    const wait = state.delayMs;
    state.delayMs = 0;
    setTimeout(() => deliver(state, mock, response), wait);
    return;
  }
  // A client that went away while the answer waited (a delay, a slow body) was sent nothing: recorded so, with no
  // status, not as the answer it never got.
  const socket = state.req.socket;
  if (socket.destroyed || !socket.writable) {
    recordExchange(mock, state, undefined);
    return;
  }
  const fault = state.fault;
  if (fault === undefined || fault === 'malformed') {
    writeAnswer(state, mock, response);
    return;
  }
  // A fault acts on the connection: a request pipelined behind others waits until their answers are out (Node
  // hands its response the socket then), so they are not lost with it (RFC 9112 §9.3.2: answers in order). And a
  // little longer: a TCP RST makes the client's system drop what it has received and not yet read.
  if (!state.res.socket) {
    state.res.once('socket', () => setTimeout(() => deliver(state, mock, response), PIPELINED_FAULT_DELAY_MS));
    return;
  }
  // reset: a TCP RST, what a crashed upstream looks like; empty: the connection closed with no byte of an
  // answer (curl: "Empty reply from server"); hang: nothing, until the client gives up.
  if (fault === 'reset') state.req.socket.resetAndDestroy();
  else if (fault === 'empty') state.req.socket.end();
  recordExchange(mock, state, undefined);
}

const PIPELINED_FAULT_DELAY_MS = 50;

/** Writes the answer (headers once, here), then records it once its body is out. */
export function writeAnswer(state: RequestState, mock: MockContext, response: MockResponse): void {
  const { res } = state;
  // Already answered: Node's parser refused the rest of this request, or it timed out (see answerClientError).
  if (res.headersSent) return;
  let sent = response;
  let headers: (string | number)[];
  // What onExchange is shown of a streamed body: its pieces as they were written.
  const written: string[] | undefined = mock.onExchange && response.chunks ? [] : undefined;
  let streaming: Promise<void> | undefined;
  try {
    headers = writeHead(state, mock, response, true);
    if (response.chunks) streaming = writeBody(res, written ? recorded(response.chunks, written) : response.chunks);
    else res.end(response.body);
  } catch (error) {
    // A handler's answer that cannot be sent (no body, a header Node refuses) is the mock's bug: a 500, and
    // the mock keeps serving.
    sent = errorResponse(error, mock, state);
    if (res.headersSent) res.destroy();
    headers = [];
    if (!res.headersSent) {
      headers = writeHead(state, mock, sent, false);
      res.end(sent.body);
    }
  }
  const exchange =
    mock.onExchange &&
    (() => ({
      method: state.req.method ?? '',
      url: state.req.url ?? '',
      operationId: state.operation?.operationId,
      status: sent.status,
      // Headers given to writeHead alone are not kept by Node (getHeaders() omits them).
      headers: { ...res.getHeaders(), ...lowerCaseNames(headers) },
      body: written ? written.join('') : sent.body,
      requestBody: state.requestBody,
    }));
  if (!streaming) {
    recordExchange(mock, state, sent, exchange);
    return;
  }
  // An answer the client went away from in the middle was never exchanged: there is no whole body to show.
  const report = () => recordExchange(mock, state, sent, res.writableFinished ? exchange : undefined);
  streaming.then(report, report);
}

// What the stages put in the state, the operation's own (deprecation), the answer's own, what Prefer applied. The
// first three never name the same field; the answer's own replace any field of the same name, in its place.
function writeHead(state: RequestState, mock: MockContext, response: MockResponse, withOperation: boolean) {
  const headers: (string | number)[] = [];
  if (state.headers) append(headers, state.headers);
  // RFC 9110 §8.6, §15.3.5, §15.4.5: a 204 or 304 has no content, and no Content-Length (a 304's would be its 200's).
  const bodiless = response.status === 204 || response.status === 304;
  if (!bodiless && (response.body !== '' || response.chunks)) headers.push('Content-Type', 'application/json');
  headers.push(NO_SNIFF[0], NO_SNIFF[1]);
  const deprecation = withOperation && state.operation ? mock.extraHeaders.get(state.operation) : undefined;
  if (deprecation) append(headers, deprecation);
  if (response.headers)
    for (const name of Object.keys(response.headers)) setHeader(headers, name, response.headers[name] as string);
  if (state.applied) setHeader(headers, 'Preference-Applied', state.applied.join(', '));
  if (closesConnection(state, response)) setHeader(headers, 'Connection', 'close');
  if (!response.chunks && !bodiless) setHeader(headers, 'Content-Length', Buffer.byteLength(response.body));
  (state.res as ServerResponse).writeHead(response.status, headers);
  return headers;
}

// A loop of push, not slice or spread: a copy keeps the source's elements kind, and the pushes after it went slow.
function append(headers: (string | number)[], list: HeaderList): void {
  for (let i = 0; i < list.length; i++) headers.push(list[i] as string);
}

function setHeader(headers: (string | number)[], name: string, value: string | number): void {
  for (let i = 0; i < headers.length; i += 2) {
    if (headers[i] === name) {
      headers[i + 1] = value;
      return;
    }
  }
  headers.push(name, value);
}

// A body the mock did not read (too large), or one a client holds back for a 100 Continue it will not get, would
// be read as the next request; a client speaking another version of HTTP sends what follows in it: the connection
// ends with this answer.
function closesConnection(state: RequestState, response: MockResponse): boolean {
  return (
    response.status === 413 || response.status === 417 || response.status === 505 || continueOwed(state.res as ServerResponse)
  );
}

function* recorded(chunks: Iterable<string>, into: string[]): Generator<string> {
  for (const chunk of chunks) {
    into.push(chunk);
    yield chunk;
  }
}

function lowerCaseNames(headers: readonly (string | number)[]): Record<string, string | number> {
  const named: Record<string, string | number> = {};
  for (let i = 0; i < headers.length; i += 2) named[String(headers[i]).toLowerCase()] = headers[i + 1] as string | number;
  return named;
}
