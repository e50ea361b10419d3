import type { OperationMatch } from '../contract/find-operation.js';
import type { ErrorBodies } from '../contract/error-body/error-bodies.js';
import type { Contract } from '../contract/load-contract.js';
import type { Operation } from '../contract/operation.js';
import type { AdminContext } from './admin/admin-routes.js';
import type { Authenticator } from './authenticate.js';
import type { CorsPolicy } from './boundary/cors.js';
import type { AnsweredExchange } from './mock-options.js';
import type { RequestJournal } from './admin/request-journal.js';
import type { ResourceHandler } from './resource/resource-handlers.js';
import type { UnreadCreateAnswer } from './resource/unread-create-answers.js';
import type { HeaderList } from './request-state.js';
import type { RuntimeRules } from './prefer/runtime-rules.js';
import type { SessionStores } from './session-stores.js';

/**
 * What every request of one mock shares: the contract as served now and what was derived from it (made again
 * when --watch reloads it), the options, the stores and where requests are reported. Built by createMockServer;
 * the stages read it and never keep a request in it.
 */
export interface MockContext {
  contract: Contract;
  /** The deprecation headers of each operation that has some. */
  readonly extraHeaders: Map<Operation, HeaderList | undefined>;
  /** Operations already found, by method then path below the base path; emptied when the contract changes. */
  readonly routes: Map<string, Map<string, FoundOperation>>;
  /** The contract's error bodies by operation and status, shaped at start (made again on a reload). */
  errorBodies: ErrorBodies;
  /** The generic store handlers of the contract's stateful resources, by operationId (made again on a reload). */
  resourceHandlers: ReadonlyMap<string, ResourceHandler>;
  /** The answers of the creates whose records nothing reads back, by operationId (made again on a reload). */
  unreadCreates: ReadonlyMap<string, UnreadCreateAnswer>;
  /** What a preflight advertises: the methods the contract has, HEAD with GET, and OPTIONS. */
  contractMethods: string;
  readonly basePath: string;
  readonly cors: CorsPolicy;
  /** The Host names (lower-case, no port) the mock answers: see allowed-hosts.ts. */
  readonly allowsHost: (name: string) => boolean;
  readonly authenticate: Authenticator;
  readonly sessions: SessionStores;
  readonly rules: RuntimeRules;
  readonly maxBodyBytes: number;
  /** --delay: every answer to an authenticated API request waits a time chosen anew between min and max. */
  readonly delay: { readonly minMs: number; readonly maxMs: number } | undefined;
  readonly admin: AdminAccess;
  readonly journal: RequestJournal;
  /** Replaces the configured keys, in any encoding. */
  readonly redact: (text: string) => string;
  /** --journal-secrets: cookies and credential-named headers and parameters are shown as sent. */
  readonly keepSecrets: boolean;
  readonly log: ((line: string) => void) | undefined;
  readonly logFormat: 'text' | 'json';
  readonly onExchange: ((exchange: AnsweredExchange) => void) | undefined;
}

export type FoundOperation = Extract<OperationMatch, { readonly kind: 'found' }>;

/** Who may call the admin endpoints, and what they work on. */
export interface AdminAccess {
  readonly context: AdminContext;
  /** Origins given with --cors-origin by name, never null: neither loopback pages nor '*' extend to the admin endpoints. */
  readonly cors: CorsPolicy;
  readonly methods: string;
  /** --admin-from-network: clients on other machines may call them too. */
  readonly fromNetwork: boolean;
  /** The mock's own origin, known once it listens: a request from it is not cross-origin. */
  ownOrigin: string;
}
