import type { Operation } from '../../contract/operation.js';
import { mockError } from '../error-codes.js';
import { checkPreferredStatus } from './preferred-status.js';
import { exampleNames } from '../prism-adapter.js';
import { type Preferences, readPreferences } from './read-preferences.js';
import { readSession } from '../session-stores.js';

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
    const preferences = readPreferences(spec.prefer);
    const { code, example } = preferences;
    const operation = operations.get(spec.operationId) as Operation;
    try {
      if (code !== undefined) checkPreferredStatus(code, operation);
    } catch (error) {
      throw invalid((error as Error).message.replace(/^header\.prefer: /, 'prefer: '));
    }
    // example= names one of Prism's examples: a request that asks for one Prism would not have is refused too.
    const names = example !== undefined ? exampleNames(operation, code) : undefined;
    if (names && !names.includes(example as string)) {
      throw invalid(
        `prefer: example=${example} is not an example of ${operation.operationId}'s ${code ?? 'success'} answer (examples: ${names.join(', ') || 'none'})`,
      );
    }
    if (this.#rules.length >= MAX_RULES) throw invalid(`at most ${MAX_RULES} rules: DELETE /__admin/rules first`);
    const rule: Rule = { ...spec, id: this.#nextId++, preferences, applied: 0 };
    this.#rules.push(rule);
    return rule;
  }

  list(): readonly Rule[] {
    return this.#rules;
  }

  clear(): void {
    this.#rules = [];
  }

  /** Removes one rule; false when there is none with that id. */
  remove(id: number): boolean {
    const before = this.#rules.length;
    this.#rules = this.#rules.filter((rule) => rule.id !== id);
    return this.#rules.length < before;
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
  // A misspelt field (`cout`) would leave a rule that never ends: every name must be known. `id` and `applied` are
  // what GET shows of a rule, so a rule read back can be posted again; they are set here, not taken.
  const unknownFields = Object.keys(body).filter((name) => !RULE_FIELDS.has(name));
  if (unknownFields.length > 0) {
    throw invalid(
      `unknown field ${unknownFields.map((name) => `'${name.slice(0, 40)}'`).join(', ')}: a rule has ${[...RULE_FIELDS].join(', ')}`,
    );
  }
  // null is absent, as GET shows an optional field that is not set.
  const fields = body as Record<string, unknown>;
  const [operationId, prefer, count, probability, session] = ['operationId', 'prefer', 'count', 'probability', 'session'].map(
    (name) => fields[name] ?? undefined,
  );
  if (typeof operationId !== 'string' || !operationIds.has(operationId)) {
    throw invalid(`operationId: must be one of ${[...operationIds].join(', ')}`);
  }
  if (typeof prefer !== 'string' || prefer.trim() === '')
    throw invalid('prefer: must be a Prefer value, e.g. "code=503, delay=200"');
  const { unknown } = readPreferences(prefer);
  if (unknown.length > 0) throw invalid(`prefer: not a preference the mock knows: ${unknown.join(', ')}`);
  if (count !== undefined && !(Number.isInteger(count) && (count as number) >= 1))
    throw invalid('count: must be a whole number of at least 1');
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

const RULE_FIELDS = new Set(['operationId', 'prefer', 'count', 'probability', 'session', 'id', 'applied']);

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
