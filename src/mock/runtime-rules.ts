import type { Operation } from '../contract/operation.js';
import { mockError } from './error-codes.js';
import { checkPreferredStatus } from './preferred-status.js';
import { type Preferences, readPreferences } from './read-preferences.js';
import { readSession } from './session-stores.js';

/** A rule as the admin API takes it: the same controls as Prefer, for the requests that match an operation. */
export interface RuleSpec {
  readonly operationId: string;
  readonly prefer: string;
  /** Applies to this many matching requests, then is gone. */
  readonly count?: number;
  /** Applies to each matching request with this probability (0 < p <= 1). */
  readonly probability?: number;
  /** Only requests of this X-Mock-Session; absent: every request. */
  readonly session?: string;
}

export interface Rule extends RuleSpec {
  readonly id: number;
  readonly preferences: Preferences;
  /** How many requests it has applied to. */
  applied: number;
}

/** At most this many rules: each request looks through them. */
const MAX_RULES = 100;

/**
 * Rules set through POST /__admin/rules, so that an app can be tested against a slow or failing operation without
 * changing its code. The first rule that matches a request applies; a request without rules costs one size check.
 */
export class RuntimeRules {
  #rules: Rule[] = [];
  #nextId = 1;

  get size(): number {
    return this.#rules.length;
  }

  /**
   * Throws 400 invalid_rule naming what is wrong, including a code the operation could never answer with (that
   * rule would turn every matching request into a 400).
   */
  add(body: unknown, operations: ReadonlyMap<string, Operation>): Rule {
    const spec = checkRule(body, new Set(operations.keys()));
    const { code } = readPreferences(spec.prefer);
    try {
      if (code !== undefined) checkPreferredStatus(code, operations.get(spec.operationId) as Operation);
    } catch (error) {
      throw invalid((error as Error).message.replace(/^header\.prefer: /, 'prefer: '));
    }
    if (this.#rules.length >= MAX_RULES) throw invalid(`at most ${MAX_RULES} rules: DELETE /__admin/rules first`);
    const rule: Rule = { ...spec, id: this.#nextId++, preferences: readPreferences(spec.prefer), applied: 0 };
    this.#rules.push(rule);
    return rule;
  }

  list(): readonly Rule[] {
    return this.#rules;
  }

  clear(): void {
    this.#rules = [];
  }

  /** The rule that applies to this request, counted as applied; undefined when none does. */
  match(operationId: string, session: string | undefined): Rule | undefined {
    for (const rule of this.#rules) {
      if (rule.operationId !== operationId) continue;
      if (rule.session !== undefined && rule.session !== session) continue;
      if (rule.probability !== undefined && Math.random() >= rule.probability) continue;
      rule.applied++;
      if (rule.count !== undefined && rule.applied >= rule.count) this.#rules = this.#rules.filter((r) => r !== rule);
      return rule;
    }
    return undefined;
  }
}

function checkRule(body: unknown, operationIds: ReadonlySet<string>): RuleSpec {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    throw invalid('the body must be a JSON object: {"operationId":"listPets","prefer":"code=503"}');
  }
  const { operationId, prefer, count, probability, session } = body as Record<string, unknown>;
  if (typeof operationId !== 'string' || !operationIds.has(operationId)) {
    throw invalid(`operationId: must be one of ${[...operationIds].join(', ')}`);
  }
  if (typeof prefer !== 'string' || prefer.trim() === '') throw invalid('prefer: must be a Prefer value, e.g. "code=503, delay=200"');
  const { unknown } = readPreferences(prefer);
  if (unknown.length > 0) throw invalid(`prefer: not a preference the mock knows: ${unknown.join(', ')}`);
  if (count !== undefined && !(Number.isInteger(count) && (count as number) >= 1)) throw invalid('count: must be a whole number of at least 1');
  if (probability !== undefined && !(typeof probability === 'number' && probability > 0 && probability <= 1)) {
    throw invalid('probability: must be a number above 0 and at most 1');
  }
  if (session !== undefined && (typeof session !== 'string' || !isSessionName(session))) {
    throw invalid('session: must be a session name (what X-Mock-Session takes)');
  }
  return {
    operationId,
    prefer,
    ...(count === undefined ? {} : { count: count as number }),
    ...(probability === undefined ? {} : { probability }),
    ...(session === undefined ? {} : { session: session as string }),
  };
}

function isSessionName(session: string): boolean {
  try {
    return readSession(session) === session;
  } catch {
    return false;
  }
}

function invalid(message: string) {
  return mockError('invalid_rule', `the rule is not valid: ${message}`);
}
