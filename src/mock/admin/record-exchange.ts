import { NO_SNIFF } from '../connection/no-sniff.js';
import type { MockResponse } from '../handler.js';
import type { MockContext } from '../mock-context.js';
import type { AnsweredExchange } from '../mock-options.js';
import { formatLogLine } from './format-log-line.js';
import { placedKeyValues } from './mask-credentials.js';
import { type JournalRecord, journalBody, journalHeaders, requestRedactor } from './request-journal.js';
import { notAppliedNotes } from '../prefer/note-applied.js';
import type { RequestState } from '../request-state.js';
import { safely } from '../safely.js';

/**
 * The one place a request is reported: the journal (not for admin requests: it shows what the app sent), the log
 * line and onExchange. `sent` is undefined for a fault that sent nothing; `exchange` is made only when someone
 * listens.
 */
export function recordExchange(
  mock: MockContext,
  state: RequestState,
  sent: MockResponse | undefined,
  exchange?: () => AnsweredExchange,
): void {
  const { req } = state;
  const refused = sent !== undefined && isRefused(sent.status, state);
  const { log, onExchange } = mock;
  // Made only when something shows the request now (the journal shows the others when it is read).
  const key = state.operation?.key;
  const redact =
    refused || log
      ? requestRedactor(req.headers, mock.redact, mock.keepSecrets, placedKeyValues(key, req.headers, req.url ?? ''))
      : mock.redact;
  // A refused request is kept without its headers, so what they held is looked for in its target now.
  const url = refused && redact !== mock.redact ? redact(req.url ?? '') : (req.url ?? '');
  const entry: JournalRecord = {
    at: Date.now(),
    method: req.method ?? '',
    url,
    operationId: state.operation?.operationId,
    session: state.session,
    status: sent?.status,
    durationMs: performance.now() - state.started,
    headers: refused ? {} : journalHeaders(req.headers),
    body: refused ? undefined : journalBody(state.requestBody),
    bodyLength: state.requestBody?.length ?? 0,
    errorCode: sent?.errorCode,
    rule: state.rule,
    applied: state.applied,
    notApplied: notAppliedNotes(state),
    key,
  };
  if (!state.admin) mock.journal.add(entry);
  if (log) safely(() => log(formatLogLine(entry, redact, mock.logFormat, mock.keepSecrets)));
  if (onExchange && exchange) safely(() => onExchange(exchange()));
}

/**
 * A request refused before the mock did anything with it (no operation, or no valid key): kept in the journal
 * without its headers and body. Anyone can send those, as many and as large as Node lets in (16 KB of headers),
 * and they are what filled the heap (exit 134); what an app sent that was handled stays whole.
 */
function isRefused(status: number, state: RequestState): boolean {
  return status >= 400 && status < 500 && (state.operation === undefined || status === 401 || status === 403);
}

/**
 * A request Node's parser refused before it was a request: no method, URL or headers to show (the bytes may hold a
 * key), so one log line with the parser's code, and onExchange sees the answer.
 */
export function recordUnparsed(mock: MockContext, response: MockResponse, parserCode: string | undefined): void {
  const { log, onExchange } = mock;
  safely(() => {
    log?.(
      mock.logFormat === 'json'
        ? JSON.stringify({ time: new Date().toISOString(), method: null, status: response.status, errorCode: parserCode })
        : `(unparsed request) ${response.status} ${parserCode}`,
    );
    onExchange?.({
      method: '',
      url: '',
      operationId: undefined,
      status: response.status,
      headers: { 'content-type': 'application/json', [NO_SNIFF[0].toLowerCase()]: NO_SNIFF[1], connection: 'close' },
      body: response.body,
    });
  });
}
