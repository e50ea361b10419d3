import { mockError } from './error-codes.js';
import type { HandlerContext } from './handler.js';
import type { ResourceModel } from '../contract/resources/resource.js';
import { type Pet, PetStore, type RenderedRecords, renderRecords, type StoreBudget } from './pet-store.js';
import type { ResourceFixtures } from './resource/resource-fixtures.js';
import type { StoredRecord } from './store/record-store.js';
import { ResourceStores } from './store/resource-stores.js';

/** The header that names a session: parallel test workers each get their own store. */
export const SESSION_HEADER = 'x-mock-session';

const SESSION_NAME = /^[A-Za-z0-9._~-]{1,64}$/;

/**
 * The default store and one store per named session, each started from the fixtures on first use. All share one
 * memory budget, and there are at most `maxSessions` of them, so sessions cannot take the mock down either. The
 * fixtures are rendered once and shared by every store (see RenderedRecords), and paid for once.
 */
export class SessionStores {
  readonly default: PetStore;
  readonly #sessions = new Map<string, HandlerContext>();
  readonly #defaultContext: HandlerContext;
  #fixtures: RenderedRecords;
  #pristine: HandlerContext | undefined;
  readonly #maxPets: number;
  readonly #budget: StoreBudget;
  readonly #basePath: string;
  readonly #model: ResourceModel;
  readonly #saved: readonly string[];
  #resourceFixtures: ResourceFixtures = new Map();
  readonly maxSessions: number;

  constructor(options: {
    fixtures: readonly Pet[];
    maxPets: number;
    budget: StoreBudget;
    basePath: string;
    maxSessions: number;
    /** The resources the contract has at start: each store keeps one RecordStore per stateful one. */
    model: ResourceModel;
    /** The keys of the top-level resources the generic handlers serve: what a state file keeps besides the pets. */
    saved?: readonly string[];
  }) {
    this.#model = options.model;
    this.#saved = options.saved ?? [];
    this.#budget = options.budget;
    this.#fixtures = this.#render(options.fixtures);
    this.#maxPets = options.maxPets;
    this.#basePath = options.basePath;
    this.maxSessions = options.maxSessions;
    this.default = new PetStore(this.#maxPets, this.#budget);
    this.default.adopt(this.#fixtures);
    this.#defaultContext = this.#context(this.default, this.#budget);
  }

  /** What a reset and a new session start from, from now on (a fixtures file edited under --watch). */
  setFixtures(fixtures: readonly Pet[]): void {
    const previous = this.#fixtures;
    this.#fixtures = this.#render(fixtures);
    this.#budget.used -= previous.bytes;
    this.#pristine = undefined;
  }

  // Rendered once and charged once to the shared budget; store_full when they do not fit in it.
  #render(fixtures: readonly Pet[]): RenderedRecords {
    const records = renderRecords(fixtures);
    if (this.#budget.used + records.bytes > this.#budget.limit) {
      throw mockError(
        'store_full',
        `the fixtures do not fit in the store's memory budget (${this.#budget.limit} bytes): restart the mock with a larger --max-store-bytes`,
      );
    }
    this.#budget.used += records.bytes;
    return records;
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
   * are, so no read is ever refused for want of room. Throws 400 invalid_session for a
   * name outside the rule, 409 too_many_sessions past the bound, 409 store_full when the fixtures no longer fit in
   * the memory budget.
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
    const store = new PetStore(this.#maxPets, this.#budget);
    store.adopt(this.#fixtures);
    const context = this.#context(store, this.#budget);
    this.#sessions.set(session, context);
    return context;
  }

  // The fixtures as a store nobody writes to, for reads of sessions not made yet; made again after setFixtures.
  #fixturesContext(): HandlerContext {
    if (this.#pristine === undefined) {
      const budget = { used: 0, limit: Number.POSITIVE_INFINITY };
      const store = new PetStore(this.#maxPets, budget);
      store.adopt(this.#fixtures);
      this.#pristine = this.#context(store, budget);
    }
    return this.#pristine;
  }

  #context(store: PetStore, budget: StoreBudget): HandlerContext {
    const resources = new ResourceStores(this.#model, this.#maxPets, budget);
    this.#fill(resources);
    return { store, resources, basePath: this.#basePath };
  }

  /**
   * The records the other resources start from, from now on; the default store takes them at once. Unlike the
   * pets' fixtures they are not shared: each store that starts from them holds and is charged its own copy.
   */
  setResourceFixtures(fixtures: ResourceFixtures): void {
    this.#resourceFixtures = fixtures;
    this.#pristine = undefined;
    this.#defaultContext.resources.clear();
    this.#fill(this.#defaultContext.resources);
  }

  #fill(resources: ResourceStores): void {
    for (const [key, records] of this.#resourceFixtures) resources.store(key)?.replaceAll(records);
  }

  /** A session's (or the default) resource stores, existing ones only: an admin read of a session nobody used makes none. */
  peekResources(session: string | undefined): ResourceStores | undefined {
    return session === undefined ? this.#defaultContext.resources : this.#sessions.get(session)?.resources;
  }

  /** Existing stores only: an admin read of a session nobody used makes none. */
  peek(session: string | undefined): PetStore | undefined {
    return session === undefined ? this.default : this.#sessions.get(session)?.store;
  }

  /**
   * One session dropped, which frees its place (its next request starts it from the fixtures again, as a reset
   * would); or, with no name, the default store back to the fixtures and every session dropped.
   */
  reset(session: string | undefined): number {
    if (session !== undefined) {
      this.#sessions.get(session)?.store.clear();
      this.#sessions.get(session)?.resources.clear();
      this.#sessions.delete(session);
      return this.#fixtures.json.length;
    }
    for (const { store, resources } of this.#sessions.values()) {
      store.clear();
      resources.clear();
    }
    this.#sessions.clear();
    this.#defaultContext.resources.clear();
    this.#fill(this.#defaultContext.resources);
    this.default.adopt(this.#fixtures);
    return this.default.size;
  }

  /** Changes to any store since start (see StoreBudget.revision). */
  get revision(): number {
    return this.#budget.revision ?? 0;
  }

  /** Replaces every store with saved ones (a state file): "" is the default store, any other name a session. */
  restore(saved: ReadonlyMap<string, readonly Pet[]>): void {
    this.reset(undefined);
    this.default.replaceAll(saved.get('') ?? []);
    for (const [name, pets] of saved) {
      if (name === '') continue;
      const store = new PetStore(this.#maxPets, this.#budget);
      store.replaceAll(pets);
      this.#sessions.set(name, this.#context(store, this.#budget));
    }
  }

  /**
   * Puts saved records of the other resources back (a state file), by store name then resource key, after
   * restore(): a resource a store saved, even empty, no longer starts from its fixtures there.
   */
  restoreResources(saved: ReadonlyMap<string, ReadonlyMap<string, readonly StoredRecord[]>>): void {
    for (const [name, byKey] of saved) {
      const { resources } = this.contextFor(name === '' ? undefined : name);
      for (const [key, records] of byKey) resources.store(key)?.replaceAll(records);
    }
  }

  /**
   * Every store's records as JSON texts, the default one under "" (what a state file holds): the pets, then each
   * other top-level resource's under its key. Nested resources are not kept in the file (their records need their
   * parents' ids, which the file does not hold yet).
   */
  *storeRecords(): Generator<readonly [string, Iterable<string>, string?]> {
    const contexts: [string, HandlerContext][] = [['', this.#defaultContext], ...this.#sessions];
    for (const [name, { store }] of contexts) yield [name, store.jsonRecords()];
    for (const [name, { resources }] of contexts) {
      for (const key of this.#saved) {
        const records = resources.store(key);
        if (records) yield [name, records.jsonRecords(), key];
      }
    }
  }
}

/** The session a request names, checked; undefined when it names none. */
export function readSession(header: string | string[] | undefined): string | undefined {
  if (header === undefined) return undefined;
  const name = Array.isArray(header) ? header.join(',') : header.trim();
  if (!SESSION_NAME.test(name)) {
    throw mockError(
      'invalid_session',
      `header.${SESSION_HEADER}: a session name is 1 to 64 letters, digits, '.', '_', '~' or '-'`,
    );
  }
  return name;
}
