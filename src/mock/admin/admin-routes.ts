import type { IncomingHttpHeaders } from 'node:http';
import { stringifyJson } from '../../contract/lossless-json.js';
import type { Operation } from '../../contract/operation.js';
import type { Resource } from '../../contract/resources/resource.js';
import { lookupMethod } from '../allowed-methods.js';
import { mockError } from '../error-codes.js';
import type { MockResponse } from '../handler.js';
import type { Rule, RuntimeRules } from '../prefer/runtime-rules.js';
import { type AdminResource, clearRecords, readAdminResource, readRecords, replaceRecords } from '../resource/admin-records.js';
import { listSingletons, readSingleton, replaceSingleton, resetSingletons } from '../resource/admin-singletons.js';
import type { SingletonPlan } from '../resource/singleton-plans.js';
import { checkedSessionName, SESSION_HEADER, type SessionStores } from '../session-stores.js';
import type { ResourceStores } from '../store/resource-stores.js';
import { type JournalFilter, type JournalRecord, type RequestJournal, renderJournalRecord } from './request-journal.js';

/** Outside the contract's base path, unauthenticated: tools for the developer, never part of the API. */
export const ADMIN_PREFIX = '/__admin';

export interface AdminContext {
  readonly sessions: SessionStores;
  readonly startedAt: number;
  readonly journal: RequestJournal;
  /** Replaces the configured keys, in any encoding. */
  readonly redact: (text: string) => string;
  /** --journal-secrets: cookies and credential-named headers and parameters shown as sent. */
  readonly keepSecrets: boolean;
  readonly rules: RuntimeRules;
  /** The contract's operations by operationId, as the mock serves them now (--watch may change them). */
  readonly operations: ReadonlyMap<string, Operation>;
  /** The resources the mock keeps records of, by collection path and by key (made again on a reload). */
  readonly resources: ReadonlyMap<string, AdminResource>;
  /** The single records the mock keeps, by key (made again on a reload). */
  readonly singletons: ReadonlyMap<string, SingletonPlan>;
  /** The contract's first stateful resource: health and reset count its records, under its name (`pets`). */
  readonly primary: Resource | undefined;
}

export interface AdminRequest {
  readonly query: URLSearchParams;
  readonly headers: IncomingHttpHeaders;
  readonly body: () => Promise<string>;
}

export type AdminRoute = (context: AdminContext, request: AdminRequest) => Promise<MockResponse> | MockResponse;

/** By path below ADMIN_PREFIX, then method. */
export const ADMIN_ROUTES: Readonly<Record<string, Readonly<Record<string, AdminRoute>>>> = {
  '/health': {
    GET: taking([], ({ sessions, startedAt, primary }) =>
      json(200, {
        status: 'ok',
        ...countOf(primary, sessions.default),
        sessions: sessions.sessionCount,
        uptimeSeconds: Math.round((Date.now() - startedAt) / 1000),
      }),
    ),
  },
  // With X-Mock-Session, that session only (a parallel worker's reset leaves the others' records alone); without
  // it, the default store, and every session is dropped. Answers what the store holds now (a dropped session: what
  // it starts from again).
  '/reset': {
    POST: taking([], ({ sessions, rules, primary }, { headers }) => {
      const session = sessions.sessionIn(headers[SESSION_HEADER]);
      if (session === undefined) rules.clear();
      sessions.reset(session);
      const count =
        primary === undefined
          ? {}
          : {
              [primary.name]:
                session === undefined ? sessions.default.store(primary.key)?.size : sessions.fixtureCount(primary.key),
            };
      return json(200, { status: 'reset', ...count });
    }),
  },
  '/rules': {
    GET: taking([], ({ rules }) => json(200, rules.list().map(showRule))),
    POST: taking([], async ({ rules, operations }, { body }) => {
      const text = await body();
      let spec: unknown;
      try {
        spec = JSON.parse(text);
      } catch {
        throw mockError('invalid_rule', 'the rule is not valid: the body is not JSON');
      }
      return json(201, showRule(rules.add(spec, operations)));
    }),
    // ?id=N removes that rule alone; without it, every rule goes.
    DELETE: taking(['id'], ({ rules }, { query }) => {
      const id = query.get('id');
      if (id === null) {
        rules.clear();
        return json(200, { status: 'cleared' });
      }
      if (!/^\d{1,9}$/.test(id) || !rules.remove(Number(id))) throw mockError('not_found', `no rule has id ${id.slice(0, 20)}`);
      return json(200, { status: 'removed', id: Number(id) });
    }),
  },
  // Any stateful resource's records (?resource=/store/orders), in the default store or one session: read, replaced
  // by a JSON array checked against the contract (a test's chosen state), or cleared.
  '/records': {
    GET: taking(['resource'], ({ sessions, resources }, { headers, query }) =>
      readRecords(sessions, sessions.sessionIn(headers[SESSION_HEADER]), readAdminResource(resources, query.get('resource'))),
    ),
    PUT: taking(['resource'], async ({ sessions, resources }, { headers, query, body }) => {
      const entry = readAdminResource(resources, query.get('resource'));
      return replaceRecords(sessions, sessions.sessionIn(headers[SESSION_HEADER]), entry, await body());
    }),
    DELETE: taking(['resource'], ({ sessions, resources }, { headers, query }) =>
      clearRecords(sessions, sessions.sessionIn(headers[SESSION_HEADER]), readAdminResource(resources, query.get('resource'))),
    ),
  },
  // The single records (rule 12) of the default store or one session: listed, or one (?path=/projects/3/settings)
  // read, replaced by a record checked against its GET's schema, or put back to its seed.
  '/singletons': {
    GET: taking(['path'], ({ sessions, singletons }, { headers, query }) => {
      const session = sessions.sessionIn(headers[SESSION_HEADER]);
      return query.has('path')
        ? readSingleton(sessions, session, singletons, query.get('path'))
        : listSingletons(sessions, session, singletons);
    }),
    PUT: taking(['path'], async ({ sessions, singletons }, { headers, query, body }) =>
      replaceSingleton(sessions, sessions.sessionIn(headers[SESSION_HEADER]), singletons, query.get('path'), await body()),
    ),
    DELETE: taking(['path'], ({ sessions, singletons }, { headers, query }) =>
      resetSingletons(sessions, sessions.sessionIn(headers[SESSION_HEADER]), singletons, query.get('path')),
    ),
  },
  '/requests': {
    GET: taking(['operation', 'session', 'limit'], ({ journal, redact, keepSecrets, operations }, { query }) => ({
      status: 200,
      body: '',
      chunks: journalChunks(journal, (record) => renderJournalRecord(record, redact, keepSecrets), {
        operationId: readOperation(query.get('operation'), operations),
        // A name no session can have would list nothing and look like a session with no requests.
        session: query.has('session') ? checkedSessionName(query.get('session') as string, 'query.session') : undefined,
        limit: readLimit(query.get('limit')),
      }),
    })),
    // The whole journal: a filter here would look as if it cleared only what it names.
    DELETE: taking([], ({ journal }) => {
      journal.clear();
      return json(200, { status: 'cleared' });
    }),
  },
};

/**
 * A route that refuses query parameters other than `params`: `DELETE /__admin/rules?ID=14` or `POST
 * /__admin/reset?session=a` would otherwise act on everything while seeming to act on what they name.
 */
function taking(params: readonly string[], route: AdminRoute): AdminRoute {
  return (context, request) => {
    const other = [...request.query.keys()].find((name) => !params.includes(name));
    if (other !== undefined) {
      const takes = params.length === 0 ? 'takes no query parameters' : `takes only ${params.join(', ')}`;
      throw mockError('invalid_parameter', `query.${other.slice(0, 40)}: this admin endpoint ${takes}`);
    }
    // Each is read once: `?id=1&id=2` would otherwise act on one and seem to have acted on both.
    const repeated = params.find((name) => request.query.getAll(name).length > 1);
    if (repeated !== undefined) {
      throw mockError(
        'invalid_parameter',
        `query.${repeated}: must be given once (got ${request.query.getAll(repeated).length} values)`,
      );
    }
    return route(context, request);
  };
}

/** Every method some admin endpoint answers, for a CORS preflight. */
export const ADMIN_METHODS: readonly string[] = [...new Set(Object.values(ADMIN_ROUTES).flatMap((r) => Object.keys(r)))];

export type AdminMatch =
  | { readonly kind: 'found'; readonly route: AdminRoute }
  | { readonly kind: 'method-not-allowed'; readonly allowed: readonly string[] }
  | { readonly kind: 'not-found' };

/**
 * `path` is below ADMIN_PREFIX (/health); HEAD is answered as GET. A top-level collection path of a stateful
 * resource (`/__admin/pets`) reads its records, as `/records?resource=/pets` does.
 */
export function findAdminRoute(method: string, path: string, resources: ReadonlyMap<string, AdminResource>): AdminMatch {
  const collection = resources.get(path);
  const byMethod = Object.hasOwn(ADMIN_ROUTES, path)
    ? ADMIN_ROUTES[path]
    : collection?.resource.parent === undefined && collection?.resource.collectionPath === path
      ? collectionRoutes(collection)
      : undefined;
  if (!byMethod) return { kind: 'not-found' };
  const found = lookupMethod(method, (m) => Object.hasOwn(byMethod, m));
  if (!Object.hasOwn(byMethod, found)) return { kind: 'method-not-allowed', allowed: Object.keys(byMethod) };
  return { kind: 'found', route: byMethod[found] as AdminRoute };
}

// Streamed: a store of gigabytes has no one JSON string (JSON.stringify of a 2 GB store crashed the mock).
function collectionRoutes(entry: AdminResource): Readonly<Record<string, AdminRoute>> {
  return {
    // With sessions off the header is ignored here too, as every other endpoint ignores it.
    GET: taking([], ({ sessions }, { headers }) => readRecords(sessions, sessions.sessionIn(headers[SESSION_HEADER]), entry)),
  };
}

function countOf(primary: Resource | undefined, stores: ResourceStores): Record<string, number> {
  return primary === undefined ? {} : { [primary.name]: stores.store(primary.key)?.size ?? 0 };
}

// Streamed an entry at a time: a journal of a thousand 4 KiB bodies is never one string.
function* journalChunks(
  journal: RequestJournal,
  render: (record: JournalRecord) => Record<string, unknown>,
  filter: JournalFilter,
): Generator<string> {
  let first = true;
  for (const record of journal.newest(filter)) {
    yield `${first ? '[' : ','}${JSON.stringify(render(record))}`;
    first = false;
  }
  yield first ? '[]' : ']';
}

function showRule(rule: Rule) {
  const { id, operationId, prefer, count, probability, session, applied } = rule;
  return { id, operationId, prefer, count: count ?? null, probability: probability ?? null, session: session ?? null, applied };
}

// A misspelt operationId would filter the journal down to nothing, as if the app had sent nothing.
function readOperation(text: string | null, operations: ReadonlyMap<string, unknown>): string | undefined {
  if (text === null) return undefined;
  if (!operations.has(text)) {
    throw mockError(
      'invalid_parameter',
      `query.operation: must be one of ${[...operations.keys()].join(', ')} (got ${text.slice(0, 40)})`,
    );
  }
  return text;
}

function readLimit(text: string | null): number | undefined {
  if (text === null) return undefined;
  if (!/^\d{1,7}$/.test(text))
    throw mockError('invalid_parameter', `query.limit: must be a whole number (got ${text.slice(0, 20)})`);
  return Number(text);
}

function json(status: number, value: unknown): MockResponse {
  return { status, body: stringifyJson(value) };
}
