import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Duplex } from 'node:stream';
import { parse as parseQuery } from 'node:querystring';
import { createRedactor } from '../shared/create-redactor.js';
import { type Contract, loadContract } from '../contract/load-contract.js';
import type { Operation } from '../contract/operation.js';
import { ADMIN_METHODS, ADMIN_PREFIX, type AdminContext, findAdminRoute } from './admin-routes.js';
import { lookupMethod, withHead } from './allowed-methods.js';
import { createAuthenticator } from './authenticate.js';
import { type ClientError, clientErrorResponse, writeRawResponse } from './client-error-response.js';
import { decideCors } from './cors.js';
import { deprecationHeaders } from './deprecation-headers.js';
import { AppError, isAppError } from '../contract/app-error.js';
import { mockError, statusOf } from './error-codes.js';
import { errorResponse } from './error-response.js';
import type { MockResponse } from './handler.js';
import { bracketed, hostnameOf } from './host-names.js';
import { listen } from './listen.js';
import { malformedResponse } from './malformed-response.js';
import { loadFixtures } from './load-fixtures.js';
import {
  checkMockOptions,
  DEFAULTS,
  DEV_API_KEY,
  defaultFixturesPath,
  defaultMaxStoreBytes,
  type MockOptions,
} from './mock-options.js';
import { normalizePath } from './normalize-path.js';
import type { PetStore } from './pet-store.js';
import { readSession, SESSION_HEADER, SessionStores } from './session-stores.js';
import { checkPreferredStatus, isError, preferredError } from './preferred-status.js';
import { exampleNames, mockWithPrism, warmPrism } from './prism-adapter.js';
import { readBody } from './read-body.js';
import { type Preferences, readPreferences } from './read-preferences.js';
import { type RawQuery, readRequest } from './read-request.js';
import { markApplied, markNotApplied, newRequestState, type RequestState } from './request-state.js';
import { formatLogLine } from './format-log-line.js';
import { type JournalRecord, journalBody, RequestJournal, requestRedactor } from './request-journal.js';
import { persistStores } from './persist-stores.js';
import { RuntimeRules } from './runtime-rules.js';
import { readStateFile, writeStateFile } from './state-file.js';
import { STATEFUL_HANDLERS } from './stateful-handlers.js';
import { loadFreshContract } from './load-fresh-contract.js';
import { watchFiles } from './watch-files.js';
import { writeBody } from './write-body.js';

export interface MockServer {
  /** The base URL clients use, including the base path: http://127.0.0.1:4010/v1 */
  readonly url: string;
  readonly port: number;
  readonly store: PetStore;
  readonly contract: Contract;
  /** Reloads the fixtures (or empties the store); resolves to the number of pets. */
  reset(): Promise<number>;
  close(): Promise<void>;
}

/**
 * Starts the mock. Everything that can be decided per operation is decided here, once: the finder, the
 * handlers, the deprecation headers; the request path only looks them up.
 *
 * The request path, stage by stage, over one RequestState (the functions below, in this order):
 *   answer        route (HEAD as GET, once) → CORS → auth → session → Prefer and rules read → body
 *   answerAdmin   the admin table instead, for /__admin (Host and Origin checked first)
 *   respond       validate → control (fault, code=) → stateful handler or Prism
 *   deliver       delay, and the faults that send nothing
 *   finish/send   headers written once, body (streamed when large)
 *   record        the one place that logs and journals
 */
export async function createMockServer(options: MockOptions = {}): Promise<MockServer> {
  checkMockOptions(options);
  let contract = await loadContract(options.contract);
  const basePath = options.basePath ?? DEFAULTS.basePath;
  const maxPets = options.maxPets ?? DEFAULTS.maxPets;
  const fixturesFile = options.fixtures === undefined ? defaultFixturesPath() : options.fixtures;
  const validatePet = contract.schemas.get('Pet');
  // Read once: a reset restores what start-up checked, so it cannot fail on a file edited since.
  const fixtures = fixturesFile === false || !validatePet ? [] : await loadFixtures(fixturesFile, validatePet, maxPets);
  const sessions = new SessionStores({
    fixtures,
    maxPets,
    budget: { limit: options.maxStoreBytes ?? defaultMaxStoreBytes(), used: 0 },
    basePath,
    maxSessions: options.maxSessions ?? DEFAULTS.maxSessions,
  });
  const store = sessions.default;
  const reset = async () => sessions.reset(undefined);
  // A state file, when there is one, stands in for the fixtures at start; a reset still restores the fixtures.
  const saved = options.stateFile && validatePet ? await readStateFile(options.stateFile, validatePet, maxPets) : undefined;
  if (saved) sessions.restore(saved);
  // Written once at start: a path that cannot be written is found now (exit 2), not when the pets are lost at exit.
  if (options.stateFile) {
    const file = options.stateFile;
    await writeStateFile(file, sessions.jsonChunks()).catch((error: NodeJS.ErrnoException) => {
      throw new AppError('state_invalid', `Failed to write state file ${file}: ${error.code ?? error.message}`);
    });
  }
  const persister = options.stateFile
    ? persistStores(options.stateFile, sessions, (problem) => note(problem))
    : undefined;

  const apiKeys = options.apiKeys?.length ? options.apiKeys : [DEV_API_KEY];
  const authenticate = createAuthenticator(apiKeys);
  // A key put in a URL (?api_key=…) or a body must not reach the log or the journal either.
  const redact = createRedactor(apiKeys);
  // Everything derived from the contract, made again when --watch reloads it.
  const extraHeaders = new Map<Operation, Record<string, string> | undefined>();
  const operationsById = new Map<string, Operation>();
  // What a preflight advertises: the methods the contract (or the admin table) has, HEAD with GET, and OPTIONS.
  let contractMethods = '';
  const adopt = (next: Contract) => {
    contract = next;
    extraHeaders.clear();
    operationsById.clear();
    for (const op of next.operations) {
      extraHeaders.set(op, deprecationHeaders(op, next.byId, basePath));
      operationsById.set(op.operationId, op);
    }
    contractMethods = [...withHead([...new Set(next.operations.map((op) => op.method))]), 'OPTIONS'].join(', ');
  };
  adopt(contract);
  const journal = new RequestJournal(options.journalSize ?? DEFAULTS.journalSize);
  const rules = new RuntimeRules();
  const adminContext: AdminContext = { sessions, startedAt: Date.now(), journal, redact, rules, operations: operationsById };
  const maxBodyBytes = options.maxBodyBytes ?? DEFAULTS.maxBodyBytes;
  const { log, onExchange, delay } = options;
  const logFormat = options.logFormat ?? 'text';
  const corsOrigins = options.corsOrigins ?? '*';
  const adminOrigins = corsOrigins === '*' ? [] : corsOrigins;
  const adminMethods = [...withHead(ADMIN_METHODS), 'OPTIONS'].join(', ');
  // Known once the server listens (port 0 picks one): a request from the mock's own origin is not cross-origin.
  let ownOrigin = '';
  const adminHosts = new Set(['127.0.0.1', 'localhost', '[::1]', hostnameOf(bracketed(options.host ?? DEFAULTS.host))]);

  // `state` records the operation as soon as it is known, so that its errors carry its headers too. Synchronous up
  // to the body: a request without one (every GET) is answered with no promise on its path.
  function answer(req: IncomingMessage, state: RequestState): MockResponse | Promise<MockResponse> {
    // RFC 9112 §3.2: more than one Host is a 400. Node keeps the first, and a second one could slip past the admin
    // endpoints' Host check.
    if (countHost(req.rawHeaders) > 1) throw mockError('malformed_request', 'the request has more than one Host header');
    const url = req.url ?? '/';
    const q = url.indexOf('?');
    const path = normalizePath(q === -1 ? url : url.slice(0, q));
    if (path.startsWith(`${ADMIN_PREFIX}/`)) {
      state.admin = true;
      return answerAdmin(req, state, path, q === -1 ? '' : url.slice(q + 1));
    }
    const cors = decideCors(req, corsOrigins, contractMethods);
    state.headers = cors.headers;
    if (cors.preflight) return { status: 204, body: '' };
    // No cut-off: querystring stops at 1000 pairs by default, and a parameter past it went unvalidated
    // (limit=1000&…&status=bogus got 200). Node's 16 KiB header limit bounds the request line already.
    const query = q === -1 ? {} : parseQuery(url.slice(q + 1), '&', '=', ALL_PAIRS);
    if (!path.startsWith(`${basePath}/`)) {
      throw mockError(
        'not_found',
        `no operation of the contract has path ${path}: the API is served under ${basePath}, e.g. ${basePath}/pets`,
      );
    }
    const relative = path.slice(basePath.length);
    const method = lookupMethod(req.method ?? 'GET', (m) => contract.findOperation(m, relative).kind === 'found');
    const match = contract.findOperation(method, relative);
    if (match.kind === 'not-found') throw mockError('not_found', `no operation of the contract has path ${path}`);
    if (match.kind === 'method-not-allowed') return refuseMethod(req, state, path, match.allowed);
    const { operation, pathParams } = match;
    state.operation = operation;
    if (operation.auth === 'bearer') {
      const denied = authenticate(req.headers.authorization);
      if (denied) throw denied;
    }
    state.session = readSession(req.headers[SESSION_HEADER]);
    // Read once the caller is known: the key is still required, and a delay applies to every answer from here on.
    const own = req.headers.prefer === undefined ? NO_PREFERENCES : readPreferences(req.headers.prefer);
    // A rule set through the admin API applies the same controls; what the request asks itself comes first.
    const rule = rules.size === 0 ? undefined : rules.match(operation.operationId, state.session);
    if (rule) state.rule = rule.id;
    const preferences = rule ? { ...rule.preferences, ...own } : own;
    state.delayMs = chooseDelay(preferences, state);
    const request: ReceivedRequest = { headers: req.headers, operation, pathParams, relative, query, preferences };
    if (!operation.requestBody) return respond(request, '', state);
    return readBody(req, maxBodyBytes).then((bodyText) => {
      state.requestBody = bodyText;
      return respond(request, bodyText, state);
    });
  }

  function chooseDelay(preferences: Preferences, state: RequestState): number {
    if (preferences.delayMs !== undefined) {
      markApplied(state, `delay=${preferences.delayMs}`);
      return preferences.delayMs;
    }
    return delay === undefined ? 0 : Math.round(delay.minMs + Math.random() * (delay.maxMs - delay.minMs));
  }

  // The admin endpoints change the mock's state and are not CORS-enabled: a page on another origin must not reach
  // them (a form POST to /__admin/reset would wipe a developer's data). Browsers send Origin on every cross-origin
  // request and on every POST; curl and test suites send none. Only origins given explicitly may call them.
  function answerAdmin(
    req: IncomingMessage,
    state: RequestState,
    path: string,
    query: string,
  ): MockResponse | Promise<MockResponse> {
    // DNS rebinding: a page on evil.example whose name now points at 127.0.0.1 is same-origin to itself and sends
    // no Origin on a GET; its Host header still names evil.example.
    const host = req.headers.host;
    if (host !== undefined && !adminHosts.has(hostnameOf(host))) {
      throw mockError(
        'admin_wrong_host',
        `the admin endpoints answer only requests addressed to the mock (Host ${[...adminHosts].join(', ')}), not Host ${host.slice(0, 100)}`,
      );
    }
    const origin = req.headers.origin;
    if (origin !== undefined && origin !== ownOrigin) {
      if (!adminOrigins.includes(origin)) {
        throw mockError(
          'admin_cross_origin',
          `the admin endpoints refuse browser requests from another origin (Origin: ${origin}): allow one with --cors-origin`,
        );
      }
      const cors = decideCors(req, adminOrigins, adminMethods);
      state.headers = cors.headers;
      if (cors.preflight) return { status: 204, body: '' };
    }
    const match = findAdminRoute(req.method ?? 'GET', path.slice(ADMIN_PREFIX.length));
    if (match.kind === 'not-found') throw mockError('not_found', `no admin endpoint ${path}: see the README`);
    if (match.kind === 'method-not-allowed') return refuseMethod(req, state, path, match.allowed);
    return match.route(adminContext, {
      query: new URLSearchParams(query),
      headers: req.headers,
      body: () => readBody(req, ADMIN_BODY_BYTES),
    });
  }

  // RFC 9110 §15.5.6: a 405 lists the methods the path has; an OPTIONS outside CORS gets 204 with the same Allow.
  function refuseMethod(req: IncomingMessage, state: RequestState, path: string, allowed: readonly string[]): MockResponse {
    const allow = withHead(allowed).join(', ');
    state.headers = { ...state.headers, Allow: allow };
    if (req.method === 'OPTIONS') return { status: 204, body: '' };
    throw mockError('method_not_allowed', `${req.method} is not a method of ${path}: allowed ${allow}`);
  }

  // The control stage, then the handler or Prism. Prefer can make a valid request fail, never an invalid one
  // succeed (validation runs first); a success asked of an operation with state is its real answer, so a created
  // pet is stored and a fetched one is the stored one.
  function respond(request: ReceivedRequest, bodyText: string, state: RequestState): MockResponse | Promise<MockResponse> {
    const { headers, operation, relative, query, preferences } = request;
    for (const token of preferences.unknown) markNotApplied(state, `${token}: not a preference the mock knows or a repeated one`);
    const given = (['code', 'fault', 'example', 'dynamic'] as const).filter((name) => preferences[name] !== undefined);
    const notApplied = (names: readonly string[], why: string) => {
      for (const name of names) markNotApplied(state, `${name}=${preferences[name as keyof typeof preferences]}: ${why}`);
    };
    let input: ReturnType<typeof readRequest>;
    try {
      input = readRequest(operation, request.pathParams, query, headers, bodyText);
    } catch (error) {
      notApplied(given, 'the request was refused before Prefer applies');
      throw error;
    }
    const { code, fault } = preferences;
    if (fault !== undefined) {
      markApplied(state, `fault=${fault}`);
      notApplied(
        given.filter((name) => name !== 'fault'),
        `fault=${fault} answers instead`,
      );
      state.fault = fault;
      return fault === 'malformed' ? malformedResponse(operation) : NO_ANSWER;
    }
    if (code !== undefined) {
      checkPreferredStatus(code, operation);
      if (isError(code)) {
        markApplied(state, `code=${code}`);
        return preferredError(operation, code);
      }
    }
    const handler = STATEFUL_HANDLERS[operation.operationId];
    if (handler) {
      notApplied(
        given.filter((name) => name === 'example' || name === 'dynamic'),
        `${operation.operationId} is answered from the store`,
      );
      // A success asked of an operation with state is its real answer: Prefer applied only if that is the status.
      if (code === undefined) return handler(input, sessions.contextFor(state.session));
      const otherwise = (status: string) => notApplied(['code'], `${operation.operationId} answered ${status} from the store`);
      return Promise.resolve()
        .then(() => handler(input, sessions.contextFor(state.session)))
        .then(
          (answered) => {
            if (answered.status === code) markApplied(state, `code=${code}`);
            else otherwise(String(answered.status));
            return answered;
          },
          (error: unknown) => {
            otherwise(isAppError(error) ? `${statusOf(error.code)} ${error.code}` : 'an error');
            throw error;
          },
        );
    }
    if (code !== undefined) markApplied(state, `code=${code}`);
    if (preferences.example !== undefined) {
      const names = exampleNames(operation);
      // Prism would answer 404, as if the path were unknown.
      if (!names.includes(preferences.example)) {
        throw mockError(
          'invalid_parameter',
          `header.prefer: example=${preferences.example} is not an example of ${operation.operationId} (examples: ${names.join(', ') || 'none'})`,
        );
      }
      markApplied(state, `example=${preferences.example}`);
    }
    if (preferences.dynamic !== undefined) markApplied(state, `dynamic=${preferences.dynamic}`);
    const choice = { code, exampleKey: preferences.example, dynamic: preferences.dynamic };
    return mockWithPrism(operation, { method: operation.method, path: relative, query, headers, body: input.body }, choice);
  }

  const requestTimeout = options.requestTimeoutMs ?? DEFAULTS.requestTimeoutMs;
  const headersTimeout = Math.min(options.headersTimeoutMs ?? DEFAULTS.headersTimeoutMs, requestTimeout);
  // A slow or stalled client cannot hold a connection: it gets a 408 (see clientError below) and is closed. Node
  // checks the timeouts every connectionsCheckingInterval (30 s by default), so that is tightened to match.
  const timeouts = { requestTimeout, headersTimeout, connectionsCheckingInterval: Math.min(1000, headersTimeout / 2) };
  // The request each connection is answering, for a parser error or timeout that cuts its body short, and the
  // last response each connection was given, which a parser error on a later request must wait for.
  const inFlight = new WeakMap<Duplex, InFlight>();
  const lastResponse = new WeakMap<Duplex, ServerResponse>();
  const server = createServer(timeouts, (req, res) => {
    const state = newRequestState(performance.now());
    inFlight.set(req.socket, { req, res, state });
    lastResponse.set(req.socket, res);
    let response: MockResponse | Promise<MockResponse>;
    try {
      response = answer(req, state);
    } catch (error) {
      response = errorResponse(error);
    }
    if (!(response instanceof Promise)) return deliver(req, res, state, response);
    response.then(
      (answered) => deliver(req, res, state, answered),
      (error: unknown) => deliver(req, res, state, errorResponse(error)),
    );
  });

  // The delay and the faults of the control stage, then send.
  function deliver(req: IncomingMessage, res: ServerResponse, state: RequestState, response: MockResponse) {
    if (state.delayMs > 0) {
      const wait = state.delayMs;
      state.delayMs = 0;
      setTimeout(() => deliver(req, res, state, response), wait);
      return;
    }
    const fault = state.fault;
    if (fault === undefined || fault === 'malformed') return finish(req, res, state, response);
    if (inFlight.get(req.socket)?.req === req) inFlight.delete(req.socket);
    // reset: a TCP RST, what a crashed upstream looks like; empty: the connection closed with no byte of an
    // answer (curl: "Empty reply from server"); hang: nothing, until the client gives up.
    if (fault === 'reset') req.socket.resetAndDestroy();
    else if (fault === 'empty') req.socket.end();
    record(req, state, undefined);
  }

  // The one place that logs and journals an answered (or deliberately unanswered) request.
  function record(req: IncomingMessage, state: RequestState, sent: MockResponse | undefined) {
    const entry: JournalRecord = {
      at: Date.now(),
      method: req.method ?? '',
      url: req.url ?? '',
      operationId: state.operation?.operationId,
      session: state.session,
      status: sent?.status,
      durationMs: performance.now() - state.started,
      headers: req.headers,
      body: journalBody(state.requestBody),
      bodyLength: state.requestBody?.length ?? 0,
      errorCode: sent?.errorCode,
      rule: state.rule,
      applied: state.applied,
      notApplied: state.notApplied,
    };
    if (!state.admin) journal.add(entry);
    if (log) safely(() => log(formatLogLine(entry, requestRedactor(req.headers.authorization, redact), logFormat)));
  }

  function finish(req: IncomingMessage, res: ServerResponse, state: RequestState, response: MockResponse) {
    const operation = state.operation;
    // Already answered: Node's parser refused the rest of this request, or it timed out (see clientError).
    if (res.headersSent) return;
    if (inFlight.get(req.socket)?.req === req) inFlight.delete(req.socket);
    let sent = response;
    let headers: Record<string, string | number>;
    // What onExchange is shown of a streamed body: its pieces as they were written.
    const written: string[] | undefined = onExchange && response.chunks ? [] : undefined;
    let streaming: Promise<void> | undefined;
    try {
      headers = send(res, response, operation, state);
      if (response.chunks) streaming = writeBody(res, written ? recorded(response.chunks, written) : response.chunks);
    } catch (error) {
      // A handler's answer that cannot be sent (no body, a header Node refuses) is the mock's bug: a 500, and
      // the mock keeps serving.
      sent = errorResponse(error);
      if (res.headersSent) res.destroy();
      headers = res.headersSent ? {} : send(res, sent, undefined, state);
    }
    const report = () => {
      record(req, state, sent);
      safely(() => {
        // An answer the client went away from in the middle was never exchanged: there is no whole body to show.
        if (streaming && !res.writableFinished) return;
        onExchange?.({
          method: req.method ?? '',
          url: req.url ?? '',
          operationId: operation?.operationId,
          status: sent.status,
          // Headers given to writeHead alone are not kept by Node (getHeaders() omits them).
          headers: { ...res.getHeaders(), ...lowerCaseNames(headers) },
          body: written ? written.join('') : sent.body,
          requestBody: state.requestBody,
        });
      });
    };
    if (streaming) streaming.then(report, report);
    else report();
  }

  // The one place headers are written: what the stages put in the state, the operation's, the answer's own.
  function send(res: ServerResponse, response: MockResponse, operation: Operation | undefined, state: RequestState) {
    const headers: Record<string, string | number> = { ...state.headers };
    if (response.body !== '' || response.chunks) headers['Content-Type'] = 'application/json';
    Object.assign(headers, operation && extraHeaders.get(operation), response.headers);
    if (state.applied) headers['Preference-Applied'] = state.applied.join(', ');
    if (response.status === 413) headers.Connection = 'close';
    if (response.chunks) {
      res.writeHead(response.status, headers);
      return headers;
    }
    headers['Content-Length'] = Buffer.byteLength(response.body);
    res.writeHead(response.status, headers);
    res.end(response.body);
    return headers;
  }

  // What the mock has to say outside a request (a reload, a state file it cannot write): through the log, or, when
  // there is none (--quiet), as a process warning, so that it is never lost silently.
  function note(line: string) {
    const text = `petstore-mock: ${line}`;
    if (options.log) safely(() => options.log?.(text));
    else process.emitWarning(text);
  }

  // log and onExchange are the caller's code: one that throws must not take the mock down with it.
  function safely(report: () => void) {
    try {
      report();
    } catch (error) {
      process.emitWarning(`petstore-mock: the log or onExchange callback threw: ${(error as Error)?.message ?? error}`);
    }
  }

  // Node's own parser errors and timeouts (a bad request line, Content-Length or chunk, headers too large or too
  // slow) would otherwise get a bare status line with no body and no log line.
  server.on('clientError', (error: ClientError, socket: Duplex) => {
    // The client is gone: nobody to answer.
    if (error.code === 'ECONNRESET' || !socket.writable) {
      socket.destroy();
      return;
    }
    const response = clientErrorResponse(error, { headersTimeoutMs: headersTimeout, requestTimeoutMs: requestTimeout });
    const pending = inFlight.get(socket);
    // A request whose body was cut short is answered through its own response, so it is logged as itself.
    if (pending && !pending.res.headersSent && !pending.req.complete) {
      pending.state.operation = undefined;
      return finish(pending.req, pending.res, pending.state, response);
    }
    // The error is a later request's (pipelined): every earlier request gets its own answer first, in order.
    const last = lastResponse.get(socket);
    if (last && !last.writableFinished) last.once('finish', () => writeRawResponse(socket, response));
    else writeRawResponse(socket, response);
    safely(() => {
      log?.(
        logFormat === 'json'
          ? JSON.stringify({ time: new Date().toISOString(), method: null, status: response.status, errorCode: error.code })
          : `(unparsed request) ${response.status} ${error.code}`,
      );
      onExchange?.({
        method: '',
        url: '',
        operationId: undefined,
        status: response.status,
        headers: { 'content-type': 'application/json', connection: 'close' },
        body: response.body,
      });
    });
  });

  server.keepAliveTimeout = 5_000;
  await listen(server, options.port ?? DEFAULTS.port, options.host ?? DEFAULTS.host);
  const { port } = server.address() as AddressInfo;
  const host = options.host ?? DEFAULTS.host;
  const url = `http://${bracketed(host)}:${port}${basePath}`;
  ownOrigin = new URL(url).origin;
  // Warm Prism after listening, and only when some operation needs it: start-up is not made to wait for it.
  const warmIfNeeded = () => {
    if (contract.operations.some((op) => !STATEFUL_HANDLERS[op.operationId])) warmPrism().catch(() => {});
  };
  warmIfNeeded();
  // --watch: an edited contract is served at once, the store kept; an edit that does not load changes nothing.
  const contractFile = contract.file;
  const reload = async (file: string) => {
    if (file === contractFile) {
      try {
        adopt(await loadFreshContract(contractFile));
        warmIfNeeded();
        note(`reloaded ${contractFile}: ${contract.operations.length} operations`);
      } catch (error) {
        note(`kept the previous contract: ${(error as Error).message}`);
      }
      return;
    }
    try {
      const pet = contract.schemas.get('Pet');
      if (pet) sessions.setFixtures(await loadFixtures(file, pet, maxPets));
      note(`reloaded ${file}: the next reset and new sessions start from it`);
    } catch (error) {
      note(`kept the previous fixtures: ${(error as Error).message}`);
    }
  };
  const stopWatching = options.watch
    ? watchFiles(typeof fixturesFile === 'string' ? [contractFile, fixturesFile] : [contractFile], (file) => void reload(file))
    : undefined;

  return {
    url,
    port,
    store,
    get contract() {
      return contract;
    },
    reset,
    close: async () => {
      stopWatching?.();
      await closeServer(server);
      await persister?.stop();
    },
  };
}

interface InFlight {
  readonly req: IncomingMessage;
  readonly res: ServerResponse;
  readonly state: RequestState;
}

const NO_PREFERENCES: Preferences = { unknown: [] };
// A rule is a few hundred bytes of JSON.
const ADMIN_BODY_BYTES = 64 * 1024;
const NO_ANSWER: MockResponse = { status: 0, body: '' };


/** What the rest of a request's answer needs once its operation is known and it is authenticated. */
interface ReceivedRequest {
  readonly preferences: Preferences;
  readonly headers: IncomingMessage['headers'];
  readonly operation: Operation;
  readonly pathParams: Readonly<Record<string, string>>;
  /** The path relative to the base path, as Prism routes it. */
  readonly relative: string;
  readonly query: RawQuery;
}

const ALL_PAIRS = { maxKeys: 0 };

function* recorded(chunks: Iterable<string>, into: string[]): Generator<string> {
  for (const chunk of chunks) {
    into.push(chunk);
    yield chunk;
  }
}

function lowerCaseNames(headers: Record<string, string | number>): Record<string, string | number> {
  return Object.fromEntries(Object.entries(headers).map(([name, value]) => [name.toLowerCase(), value]));
}

function closeServer(server: Server): Promise<void> {
  return new Promise((resolve) => {
    server.close(() => resolve());
    server.closeIdleConnections();
    // Connections still mid-request get a moment to finish, then go.
    setTimeout(() => server.closeAllConnections(), 1000).unref();
  });
}

function countHost(rawHeaders: readonly string[]): number {
  let count = 0;
  for (let i = 0; i < rawHeaders.length; i += 2) if ((rawHeaders[i] as string).toLowerCase() === 'host') count++;
  return count;
}
