import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { resolve } from 'node:path';
import type { Duplex } from 'node:stream';
import { AppError } from '../contract/app-error.js';
import { errorBodiesOf } from '../contract/error-body/error-bodies.js';
import { type Contract, loadContract } from '../contract/load-contract.js';
import { inferResources } from '../contract/resources/infer-resources.js';
import type { Operation } from '../contract/operation.js';
import type { Resource } from '../contract/resources/resource.js';
import { createRedactor } from '../shared/create-redactor.js';
import { ADMIN_METHODS } from './admin/admin-routes.js';
import { withHead } from './allowed-methods.js';
import { answerClientError } from './connection/answer-client-error.js';
import { answerConnect } from './connection/answer-connect.js';
import { createAuthenticator } from './authenticate.js';
import type { ClientError } from './connection/client-error-response.js';
import { deprecationHeaders } from './deprecation-headers.js';
import { handleRequest } from './handle-request.js';
import { holdContinue } from './connection/hold-continue.js';
import { ERROR_STATUSES } from './error-codes.js';
import { keepAnswersMadeBeforeEnd } from './connection/keep-answers-before-end.js';
import { allowHosts } from './boundary/allowed-hosts.js';
import { corsPolicy } from './boundary/cors.js';
import { bracketed } from './boundary/host-names.js';
import { limitConnectionsPerClient } from './connection/connections-per-client.js';
import { listen } from './connection/listen.js';
import { firstMisfit } from './reload/first-misfit.js';
import { firstSingletonMisfit } from './reload/first-singleton-misfit.js';
import { loadFreshContract, yieldToRequests } from './reload/load-fresh-contract.js';
import type { MockContext } from './mock-context.js';
import {
  checkMockOptions,
  DEFAULTS,
  DEV_API_KEY,
  defaultFixturesPath,
  isBasePath,
  defaultJournalBytes,
  defaultMaxStoreBytes,
  journalSizeOf,
  type MockOptions,
  stateFileRecordBytes,
} from './mock-options.js';
import { lockStateFile, type StateLock } from './persistence/lock-state-file.js';
import { persistStores } from './persistence/persist-stores.js';
import { readStateFile, writeStateFile } from './persistence/state-file.js';
import { removeStaleTemporaries } from './persistence/temporary-files.js';
import { writeRejected } from './persistence/write-rejected.js';
import { warmPrism } from './prism-adapter.js';
import { RequestJournal } from './admin/request-journal.js';
import { RuntimeRules } from './prefer/runtime-rules.js';
import { safely } from './safely.js';
import { type AdminResource, adminResources } from './resource/admin-records.js';
import { singletonHandlers } from './resource/singleton-handlers.js';
import { type SingletonPlan, singletonPlans } from './resource/singleton-plans.js';
import { resourceHandlers, servedResources } from './resource/resource-handlers.js';
import { unreadCreateAnswers } from './resource/unread-create-answers.js';
import { type LoadedFixtures, loadFixtures } from './resource/load-fixtures.js';
import { RecordStore } from './store/record-store.js';
import { type GivenRecords, SessionStores } from './session-stores.js';
import { watchFiles } from './reload/watch-files.js';

export interface MockServer {
  /** The base URL clients use, including the base path: http://127.0.0.1:4010/v1 */
  readonly url: string;
  readonly port: number;
  /**
   * The default store's records of the contract's first stateful resource (the Pet Store's pets), for a test that
   * looks inside; an empty store that takes nothing for a contract without one. Every resource's records are in
   * the same store.
   */
  readonly store: RecordStore;
  /** The contract's first stateful resource (see store): what a fixtures array holds, and health and reset count. */
  readonly primary: Resource | undefined;
  readonly contract: Contract;
  /** Back to the fixtures (or empty); resolves to the number of records of the first stateful resource. */
  reset(): Promise<number>;
  close(): Promise<void>;
}

/**
 * Starts the mock: the options, the stores, the contract (reloaded with --watch), the server and its events. The
 * request path itself is the list of stages in run-stages.ts. Everything that can be decided per operation is
 * decided here, once; the request path only looks it up.
 */
export async function createMockServer(options: MockOptions = {}): Promise<MockServer> {
  checkMockOptions(options);
  // Taken first and held until close: no second mock reads or writes this state file meanwhile.
  const lock = options.stateFile ? lockStateFile(options.stateFile) : undefined;
  try {
    return await startMock(options, lock);
  } catch (error) {
    lock?.release();
    throw error;
  }
}

async function startMock(options: MockOptions, lock: StateLock | undefined): Promise<MockServer> {
  const contract = await loadContract(options.contract);
  // Where the contract's servers put the API (`/api/{version}` at its defaults), as a client built from it asks.
  const basePath = options.basePath ?? contract.basePaths.find(isBasePath) ?? DEFAULTS.basePath;
  const maxRecords = options.maxPets ?? DEFAULTS.maxPets;
  const fixturesFile = options.fixtures === undefined ? defaultFixturesPath() : options.fixtures;
  // Read once: a reset restores what start-up checked, so it cannot fail on a file edited since.
  const model = inferResources(contract);
  const served = servedResources(contract);
  const servedByName = adminResources(contract, served);
  // What a fixtures array and a state file of an older version hold, and what health and reset count.
  const primary = served.find((resource) => resource.parent === undefined);
  // The CLI passes the default file by name too: only another file is one the user chose.
  const chosen = typeof fixturesFile === 'string' && resolve(fixturesFile) !== resolve(defaultFixturesPath());
  const fixtures: LoadedFixtures =
    fixturesFile === false
      ? { records: new Map(), rejected: [] }
      : await loadFixtures(fixturesFile, servedByName, primary, maxRecords, chosen);
  if (fixtures.rejected.length > 0 && typeof fixturesFile === 'string') {
    const kept = [...fixtures.records.values()].reduce((sum, { records }) => sum + records.length, 0);
    // The fixtures file itself is never changed, so nothing is lost when the side file cannot be written.
    note(
      await writeRejected(fixturesFile, 'fixtures', fixtures.rejected, kept).catch(
        (error: NodeJS.ErrnoException) =>
          `fixtures ${fixturesFile}: ${fixtures.rejected.length} record(s) no longer fit the contract (the first, ${fixtures.rejected[0]?.position}: ${fixtures.rejected[0]?.reason}); started without them (could not write a side file: ${error.code ?? error.message})`,
      ),
    );
  }
  // What a reset and a new session start from: a reloaded contract must accept them too.
  let heldFixtures: GivenRecords = fixtures.records;
  const stateFile = options.stateFile;
  const sessions = new SessionStores({
    maxRecords,
    budget: {
      limit: options.maxStoreBytes ?? defaultMaxStoreBytes(),
      used: 0,
      file: stateFile
        ? {
            limit: stateFileRecordBytes(
              options,
              [...model.resources, ...(model.singletons ?? [])].map((r) => r.key),
            ),
            used: 0,
          }
        : undefined,
    },
    basePath,
    maxSessions: options.maxSessions ?? DEFAULTS.maxSessions,
    model,
  });
  sessions.setFixtures(fixtures.records);
  sessions.reset(undefined);
  const store =
    (primary && sessions.default.store(primary.key)) ??
    new RecordStore({ idField: 'id', idKind: 'integer', indexFields: [], maxRecords: 0 });
  const reset = async () => {
    sessions.reset(undefined);
    return store.size;
  };
  if (stateFile) {
    for (const name of await removeStaleTemporaries(stateFile)) note(`removed ${name}, left by a mock that stopped mid-write`);
    // A state file, when there is one, stands in for the fixtures at start; a reset still restores the fixtures.
    const saved = await readStateFile(stateFile, servedByName, primary?.key, maxRecords, singletonPlans(contract, served));
    if (saved) {
      try {
        sessions.restore(saved.stores, saved.singletons);
      } catch (error) {
        throw new AppError('state_invalid', `Failed to load state file ${stateFile}: ${(error as Error).message}`);
      }
      // Written before the state file is written again without them: they are never lost.
      if (saved.rejected.length > 0) {
        note(
          await writeRejected(stateFile, 'state file', saved.rejected, saved.kept).catch((error: NodeJS.ErrnoException) => {
            throw new AppError(
              'state_invalid',
              `Failed to load state file ${stateFile}: ${saved.rejected.length} record(s) no longer fit the contract, and they could not be set aside (${error.code ?? error.message})`,
            );
          }),
        );
      }
    }
    // Written once at start: a path that cannot be written is found now (exit 2), not when the records are lost at exit.
    await writeStateFile(stateFile, sessions.stores(), sessions.singletonSections()).catch((error: NodeJS.ErrnoException) => {
      throw new AppError('state_invalid', `Failed to write state file ${stateFile}: ${error.code ?? error.message}`);
    });
  }
  const persister = stateFile ? persistStores(stateFile, sessions, (problem) => note(problem)) : undefined;

  const apiKeys = options.apiKeys?.length ? options.apiKeys : [DEV_API_KEY];
  const journal = new RequestJournal(journalSizeOf(options), options.journalBytes ?? defaultJournalBytes());
  const rules = new RuntimeRules();
  // A key put in a URL (?api_key=…) or a body must not reach the log or the journal either.
  const redact = createRedactor(apiKeys);
  const operationsById = new Map<string, Operation>();
  const resourcesByName = new Map<string, AdminResource>();
  const singletonsByKey = new Map<string, SingletonPlan>();
  const cors = corsPolicy(options.corsOrigins);
  const keepSecrets = options.journalSecrets ?? false;
  const mock: MockContext = {
    contract,
    extraHeaders: new Map(),
    routes: new Map(),
    contractMethods: '',
    resourceHandlers: new Map(),
    unreadCreates: new Map(),
    errorBodies: errorBodiesOf(contract, ERROR_STATUSES),
    basePath,
    cors,
    allowsHost: allowHosts(options.allowedHosts, options.host ?? DEFAULTS.host),
    authenticate: createAuthenticator(apiKeys),
    sessions,
    rules,
    maxBodyBytes: options.maxBodyBytes ?? DEFAULTS.maxBodyBytes,
    delay: options.delay,
    admin: {
      context: {
        sessions,
        startedAt: Date.now(),
        journal,
        redact,
        keepSecrets,
        rules,
        operations: operationsById,
        resources: resourcesByName,
        singletons: singletonsByKey,
        primary,
      },
      cors: { listed: cors.listed.filter((origin) => origin !== 'null'), any: false },
      methods: [...withHead(ADMIN_METHODS), 'OPTIONS'].join(', '),
      fromNetwork: options.adminFromNetwork ?? false,
      ownOrigin: '',
    },
    journal,
    redact,
    keepSecrets,
    log: options.log,
    logFormat: options.logFormat ?? 'text',
    onExchange: options.onExchange,
  };
  // Everything derived from the contract, made again when --watch reloads it.
  const adopt = (next: Contract) => {
    mock.contract = next;
    mock.extraHeaders.clear();
    mock.routes.clear();
    operationsById.clear();
    for (const op of next.operations) {
      mock.extraHeaders.set(op, deprecationHeaders(op, next.byId, basePath));
      operationsById.set(op.operationId, op);
    }
    const served = servedResources(next);
    singletonsByKey.clear();
    for (const [key, plan] of singletonPlans(next, served)) singletonsByKey.set(key, plan);
    mock.resourceHandlers = new Map([...resourceHandlers(next, served), ...singletonHandlers(next, singletonsByKey)]);
    mock.unreadCreates = unreadCreateAnswers(next);
    mock.errorBodies = errorBodiesOf(next, ERROR_STATUSES);
    resourcesByName.clear();
    for (const [name, entry] of adminResources(next, served)) resourcesByName.set(name, entry);
    mock.contractMethods = [...withHead([...new Set(next.operations.map((op) => op.method))]), 'OPTIONS'].join(', ');
  };
  adopt(contract);

  const requestTimeout = options.requestTimeoutMs ?? DEFAULTS.requestTimeoutMs;
  const headersTimeout = Math.min(options.headersTimeoutMs ?? DEFAULTS.headersTimeoutMs, requestTimeout);
  // A slow or stalled client cannot hold a connection: it gets a 408 (see answerClientError) and is closed. Node
  // checks the timeouts every connectionsCheckingInterval (30 s by default), so that is tightened to match.
  // requireHostHeader is off so that a request without Host gets an Error body (readTarget), not a bare 400.
  const server = createServer(
    { requestTimeout, headersTimeout, connectionsCheckingInterval: Math.min(1000, headersTimeout / 2), requireHostHeader: false },
    (req, res) => handleRequest(mock, req, res),
  );
  // An Expect other than 100-continue: readTarget answers 417 with an Error body (RFC 9110 §10.1.1).
  server.on('checkExpectation', (req: IncomingMessage, res: ServerResponse) => handleRequest(mock, req, res));
  server.on('checkContinue', (req: IncomingMessage, res: ServerResponse) => {
    holdContinue(req, res);
    handleRequest(mock, req, res);
  });
  server.on('connect', (req: IncomingMessage, socket: Duplex) => answerConnect(mock, req, socket));
  server.on('clientError', (error: ClientError, socket: Duplex) =>
    answerClientError(mock, { headersTimeoutMs: headersTimeout, requestTimeoutMs: requestTimeout }, error, socket),
  );

  // What the mock has to say outside a request (a reload, a state file it cannot write): where the caller asks,
  // else through the log, or, when there is none (--quiet), as a process warning, so that it is never lost silently.
  function note(line: string) {
    const text = `petstore-mock: ${line}`;
    const sink = options.notice ?? options.log;
    if (sink) safely(() => sink(text));
    else process.emitWarning(text);
  }

  server.keepAliveTimeout = 5_000;
  // Node's own default is none: a socket that a client stopped reading (a large list's answer half written), or a
  // fault=hang, was held until the mock stopped, and enough of them took every file descriptor. Node destroys the
  // socket when nothing answers 'timeout'; keepAliveTimeout still applies between requests.
  server.timeout = options.idleTimeoutMs ?? DEFAULTS.idleTimeoutMs;
  keepAnswersMadeBeforeEnd(server);
  limitConnectionsPerClient(server, options.maxConnectionsPerClient ?? DEFAULTS.maxConnectionsPerClient);
  await listen(server, options.port ?? DEFAULTS.port, options.host ?? DEFAULTS.host);
  const { port } = server.address() as AddressInfo;
  const host = options.host ?? DEFAULTS.host;
  const url = `http://${bracketed(host)}:${port}${basePath}`;
  // Known once the server listens (port 0 picks one): a request from the mock's own origin is not cross-origin.
  mock.admin.ownOrigin = new URL(url).origin;
  // Warm Prism after listening, and only when some operation needs it: start-up is not made to wait for it.
  const warmIfNeeded = () => {
    const answered = (id: string) => mock.resourceHandlers.has(id) || mock.unreadCreates.has(id);
    if (mock.contract.operations.some((op) => !answered(op.operationId))) warmPrism().catch(() => {});
  };
  warmIfNeeded();
  // --watch: an edited contract is served at once, the store kept; an edit that does not load changes nothing.
  const contractFile = contract.file;
  // Records the new contract refuses keep it from being adopted (see firstMisfit). Records written while the check
  // paused are checked again, without pausing: what is adopted is what was checked.
  const misfitUnder = async (next: Contract) => {
    const resources = servedResources(next);
    const nextServed = adminResources(next, resources);
    const revision = sessions.revision;
    const found = await firstMisfit(nextServed, sessions.stores(), heldFixtures, yieldToRequests);
    const records =
      found !== undefined || sessions.revision === revision
        ? found
        : await firstMisfit(nextServed, sessions.stores(), heldFixtures);
    // Few and small: checked at once, after any pause, so what is adopted is what was checked.
    return records ?? firstSingletonMisfit(singletonPlans(next, resources), sessions.heldSingletons());
  };
  const reloadContract = async () => {
    let next: Contract;
    try {
      // Said before the long part: a large contract takes seconds, the previous one served meanwhile.
      next = await loadFreshContract(contractFile, (operations) => note(`compiling ${contractFile}: ${operations} operations`));
    } catch (error) {
      note(`kept the previous contract: ${(error as Error).message}`);
      return;
    }
    const misfit = await misfitUnder(next);
    if (misfit !== undefined) {
      note(
        `kept the previous contract: ${contractFile} does not accept ${misfit}. Mend or delete the records it refuses and save the contract again, or restart the mock: a start sets them aside in a side file and keeps the others`,
      );
      return;
    }
    adopt(next);
    warmIfNeeded();
    note(`reloaded ${contractFile}: ${mock.contract.operations.length} operations`);
  };
  const reloadFixtures = async (file: string) => {
    try {
      const now = servedResources(mock.contract);
      const loaded = await loadFixtures(
        file,
        adminResources(mock.contract, now),
        now.find((r) => r.parent === undefined),
        maxRecords,
        chosen,
      );
      sessions.setFixtures(loaded.records);
      heldFixtures = loaded.records;
      const first = loaded.rejected[0];
      // Never silently: a record the contract refuses is named (the file itself is left as it is, so none is lost).
      const without = first
        ? `, without ${loaded.rejected.length} record(s) the contract refuses (the first, ${first.position}: ${first.reason})`
        : '';
      note(`reloaded ${file}${without}: the next reset and new sessions start from it`);
    } catch (error) {
      note(`kept the previous fixtures: ${(error as Error).message}`);
    }
  };
  const stopWatching = options.watch
    ? watchFiles(typeof fixturesFile === 'string' ? [contractFile, fixturesFile] : [contractFile], (file) =>
        file === contractFile ? reloadContract() : reloadFixtures(file),
      )
    : undefined;

  return {
    url,
    port,
    store,
    primary,
    get contract() {
      return mock.contract;
    },
    reset,
    close: async () => {
      stopWatching?.();
      await closeServer(server);
      await persister?.stop();
      lock?.release();
    },
  };
}

function closeServer(server: Server): Promise<void> {
  return new Promise((resolve) => {
    server.close(() => resolve());
    server.closeIdleConnections();
    // Connections still mid-request get a moment to finish, then go.
    setTimeout(() => server.closeAllConnections(), 1000).unref();
  });
}
