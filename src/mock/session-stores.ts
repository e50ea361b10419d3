import type { Resource, ResourceModel } from '../contract/resources/resource.js';
import { mockError } from './error-codes.js';
import type { HandlerContext } from './handler.js';
import { RecordStore, type ScopedRecord } from './store/record-store.js';
import { recordStoreOptions } from './store/record-store-options.js';
import { recordLine } from './persistence/record-line.js';
import { ResourceStores, type SharedFixtures } from './store/resource-stores.js';
import type { HeldSingleton } from './store/singleton-records.js';
import { type StoreBudget, unlimitedBudget } from './store/store-budget.js';

/** The header that names a session: parallel test workers each get their own store. */
export const SESSION_HEADER = 'x-mock-session';

const SESSION_NAME = /^[A-Za-z0-9._~-]{1,64}$/;

/** Records given whole for some resources, by resource key (fixtures, a store of a state file). */
export type GivenRecords = ReadonlyMap<string, { readonly resource: Resource; readonly records: readonly ScopedRecord[] }>;

/**
 * The default store and one store per named session, each holding every stateful resource's records (see
 * ResourceStores) and started from the fixtures on first use. All share one memory budget, and there are at most
 * `maxSessions` of them, so sessions cannot take the mock down either. The fixtures are rendered once and shared by
 * every store (see RenderedRecords), and paid for once.
 */
export class SessionStores {
  readonly #sessions = new Map<string, HandlerContext>();
  readonly #defaultContext: HandlerContext;
  #fixtures: SharedFixtures = new Map();
  #fixturesBytes = 0;
  #pristine: HandlerContext | undefined;
  readonly #maxRecords: number;
  readonly #budget: StoreBudget;
  readonly #basePath: string;
  readonly #model: ResourceModel;
  readonly maxSessions: number;

  constructor(options: {
    maxRecords: number;
    budget: StoreBudget;
    basePath: string;
    maxSessions: number;
    /** The resources the contract has at start: each store keeps one RecordStore per stateful one. */
    model: ResourceModel;
  }) {
    this.#model = options.model;
    this.#budget = options.budget;
    this.#maxRecords = options.maxRecords;
    this.#basePath = options.basePath;
    this.maxSessions = options.maxSessions;
    this.#defaultContext = this.#context(this.#budget);
  }

  /** The default store's resources: what requests without a session work on. */
  get default(): ResourceStores {
    return this.#defaultContext.resources;
  }

  /**
   * What a reset and a new session start from, from now on (at start; a fixtures file edited under --watch):
   * rendered once and charged once to the shared budget; store_full when they do not fit in it.
   */
  setFixtures(fixtures: GivenRecords): void {
    const rendered = new Map<string, { resource: Resource; rendered: ReturnType<typeof RecordStore.render> }>();
    let bytes = 0;
    for (const [key, { resource, records }] of fixtures) {
      const options = recordStoreOptions(resource, { maxRecords: this.#maxRecords });
      if (!options) continue;
      const one = RecordStore.render(options, records);
      rendered.set(key, { resource, rendered: one });
      bytes += one.bytes;
    }
    if (this.#budget.used - this.#fixturesBytes + bytes > this.#budget.limit) {
      throw mockError(
        'store_full',
        `the fixtures do not fit in the store's memory budget (${this.#budget.limit} bytes): restart the mock with a larger --max-store-bytes`,
      );
    }
    this.#budget.used += bytes - this.#fixturesBytes;
    this.#fixturesBytes = bytes;
    this.#fixtures = rendered;
    this.#pristine = undefined;
  }

  /** The session a request's header names; none when sessions are off (--max-sessions 0): the header is ignored. */
  sessionIn(header: string | string[] | undefined): string | undefined {
    return this.maxSessions === 0 ? undefined : readSession(header);
  }

  get sessionCount(): number {
    return this.#sessions.size;
  }

  /**
   * The store a request works on: the default one without a session (see sessionIn), else its session's, made
   * from the fixtures the first time it is written to. A read of a session not made yet reads the fixtures as they
   * are, so no read is ever refused for want of room. Throws 400 invalid_session for a name outside the rule, 409
   * too_many_sessions past the bound, 409 store_full when the fixtures no longer fit in the memory budget.
   */
  contextFor(session: string | undefined, reading = false): HandlerContext {
    if (session === undefined) return this.#defaultContext;
    const known = this.#sessions.get(session);
    if (known) return known;
    if (reading) return this.#fixturesContext();
    if (this.#sessions.size >= this.maxSessions) {
      throw mockError(
        'too_many_sessions',
        `the mock holds its maximum of ${this.maxSessions} sessions: POST /__admin/reset with ${SESSION_HEADER} drops one, without it drops them all; or raise --max-sessions`,
      );
    }
    const context = this.#context(this.#budget);
    context.resources.startFrom(this.#fixtures);
    this.#sessions.set(session, context);
    return context;
  }

  // The fixtures as a store nobody writes to, for reads of sessions not made yet; made again after setFixtures.
  #fixturesContext(): HandlerContext {
    if (this.#pristine === undefined) {
      this.#pristine = this.#context(unlimitedBudget());
      this.#pristine.resources.startFrom(this.#fixtures);
    }
    return this.#pristine;
  }

  #context(budget: StoreBudget): HandlerContext {
    return { resources: new ResourceStores(this.#model, this.#maxRecords, budget), basePath: this.#basePath };
  }

  /** A session's (or the default) resource stores, existing ones only: an admin read of a session nobody used makes none. */
  peekResources(session: string | undefined): ResourceStores | undefined {
    return session === undefined ? this.#defaultContext.resources : this.#sessions.get(session)?.resources;
  }

  /**
   * One session dropped, which frees its place (its next request starts it from the fixtures again, as a reset
   * would); or, with no name, the default store back to the fixtures and every session dropped.
   */
  reset(session: string | undefined): void {
    if (session !== undefined) {
      this.#sessions.get(session)?.resources.clear();
      this.#sessions.delete(session);
      return;
    }
    for (const { resources } of this.#sessions.values()) resources.clear();
    this.#sessions.clear();
    this.#defaultContext.resources.startFrom(this.#fixtures);
  }

  /** How many records of a resource a store starts from (the fixtures'): what a reset session holds again. */
  fixtureCount(key: string): number {
    return this.#fixtures.get(key)?.rendered.json.length ?? 0;
  }

  /** Changes to any store since start (see StoreBudget.revision). */
  get revision(): number {
    return this.#budget.revision ?? 0;
  }

  /**
   * Replaces every store with saved ones (a state file): "" is the default store, any other name a session. A
   * resource a store saved, even empty, no longer starts from its fixtures there; one it did not save does.
   */
  restore(saved: ReadonlyMap<string, GivenRecords>, singletons: ReadonlyMap<string, readonly HeldSingleton[]> = new Map()): void {
    // The bound holds from the start: a file written under a larger --max-sessions (or made by hand) is not loaded
    // past it, and what is over it is not dropped silently either.
    const count = [...saved.keys()].filter((name) => name !== '').length;
    if (count > this.maxSessions) {
      throw new Error(
        `it holds ${count} sessions, more than --max-sessions ${this.maxSessions}: start the mock with --max-sessions ${count} or more`,
      );
    }
    this.reset(undefined);
    for (const [name, byKey] of saved) {
      let context = this.#sessions.get(name);
      if (name === '') context = this.#defaultContext;
      else if (context === undefined) {
        context = this.#context(this.#budget);
        context.resources.startFrom(this.#fixtures);
        this.#sessions.set(name, context);
      }
      for (const { resource, records } of byKey.values()) {
        const store = context.resources.storeFor(resource);
        store?.clear();
        for (const { record, scope } of records) store?.create(record, scope);
      }
    }
    for (const [name, held] of singletons) {
      const context = name === '' ? this.#defaultContext : this.contextFor(name);
      for (const { key, parent, scope, json } of held) context.resources.singletons.set(key, parent, scope, json);
    }
  }

  /** Every store's single records written (rule 12), with the store's name ("" the default one). */
  *heldSingletons(): Generator<readonly [string, HeldSingleton]> {
    const contexts: [string, HandlerContext][] = [['', this.#defaultContext], ...this.#sessions];
    for (const [name, { resources }] of contexts) {
      for (const held of resources.singletons.entries()) yield [name, held];
    }
  }

  /** The single records written, store by store and key by key: what a state file holds after the records. */
  *singletonSections(): Generator<readonly [string, string, { fileLines(): Iterable<string> }]> {
    const sections = new Map<string, { name: string; key: string; lines: string[] }>();
    for (const [name, { key, scope, json }] of this.heldSingletons()) {
      const id = JSON.stringify([name, key]);
      const section = sections.get(id) ?? { name, key, lines: [] };
      sections.set(id, section);
      section.lines.push(recordLine(json, scope));
    }
    for (const { name, key, lines } of sections.values()) yield [name, key, { fileLines: () => lines }];
  }

  /** Every store's records, the default one under "", by resource key: what a state file holds, in its order. */
  *stores(): Generator<readonly [string, string, RecordStore]> {
    const contexts: [string, HandlerContext][] = [['', this.#defaultContext], ...this.#sessions];
    for (const [name, { resources }] of contexts) {
      for (const [key, store] of resources.entries()) yield [name, key, store];
    }
  }
}

/** The session a request names, checked; undefined when it names none. */
export function readSession(header: string | string[] | undefined): string | undefined {
  if (header === undefined) return undefined;
  return checkedSessionName(Array.isArray(header) ? header.join(',') : header.trim(), `header.${SESSION_HEADER}`);
}

/** A session name given in `field` (a header, the journal's ?session=), checked by the one rule. */
export function checkedSessionName(name: string, field: string): string {
  if (!SESSION_NAME.test(name)) {
    throw mockError('invalid_session', `${field}: a session name is 1 to 64 letters, digits, '.', '_', '~' or '-'`);
  }
  return name;
}
