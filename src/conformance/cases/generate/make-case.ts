import type { Operation } from '../../../contract/operation.js';
import { holdsTemplate } from '../interpolate.js';
import type { AuthChoice, Repeat, Scenario, Step, StepExpectation } from '../scenario.js';
import { requiredHeaders } from './required-headers.js';

export interface StepSpec {
  readonly operation: Operation;
  readonly params?: Readonly<Record<string, unknown>>;
  readonly query?: Readonly<Record<string, unknown>>;
  /** Sent over the required ones (required-headers.ts); undefined leaves a required one out. */
  readonly headers?: Readonly<Record<string, string | undefined>>;
  readonly body?: Step['body'];
  readonly auth?: AuthChoice;
  readonly expect?: StepExpectation;
  readonly capture?: string;
  readonly observe?: string;
  readonly repeat?: Repeat;
  readonly parallel?: number;
  readonly setup?: boolean;
  readonly respell?: Step['respell'];
  readonly unlessMissing?: string;
  readonly method?: Step['method'];
  readonly raw?: boolean;
  readonly walk?: Step['walk'];
}

export interface CaseSpec {
  readonly kind: string;
  /** The case's id after its kind: `<operationId>/<variant>`. */
  readonly id: string;
  readonly name: string;
  readonly description: string;
  readonly steps: readonly StepSpec[];
  readonly tags?: readonly string[];
  readonly connection?: Scenario['connection'];
}

// RFC 9110 §9.2.1: any other method may change the target, so --read-only skips the case.
const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/** A generated case as the same Scenario value a scenario file gives, so one runner, one set of checks, one report. */
export function makeCase(spec: CaseSpec): Scenario {
  const steps = spec.steps.map(makeStep);
  const mutating = steps.some((step) => !SAFE_METHODS.has(step.operation.method));
  return {
    id: `${spec.kind}/${spec.id}`,
    source: 'generated',
    kind: spec.kind,
    file: `generated/${spec.kind}`,
    line: 0,
    name: spec.name,
    description: spec.description,
    tags: [...new Set(['generated', spec.kind, ...(spec.tags ?? []), mutating ? 'mutating' : 'read-only'])],
    steps,
    connection: spec.connection ?? 'pooled',
  };
}

// A JSON body goes out as application/json unless the operation takes JSON only under another name
// (`application/merge-patch+json`, RFC 7396): then that is what a valid request carries.
export function jsonMediaType(spec: StepSpec): Record<string, string> {
  const types = spec.operation.requestBody?.contents.map((c) => c.mediaType) ?? [];
  const other = types.find((type) => /^application\/[^;]*\+json$/i.test(type));
  return spec.body?.kind === 'json' && !types.includes('application/json') && other ? { 'content-type': other } : {};
}

function makeStep(spec: StepSpec, i: number): Step {
  const step: Step = {
    index: i + 1,
    line: 0,
    operation: spec.operation,
    path: spec.params ?? {},
    query: spec.query ?? {},
    // The step's own headers win: a case that sends another If-Match means to.
    headers: sentHeaders({ ...requiredHeaders(spec.operation), ...(spec.headers ?? jsonMediaType(spec)) }),
    body: spec.body,
    auth: spec.auth ?? 'default',
    expect: spec.expect ?? {},
    capture: spec.capture,
    observe: spec.observe,
    repeat: spec.repeat,
    parallel: spec.parallel,
    setup: spec.setup,
    respell: spec.respell,
    unlessMissing: spec.unlessMissing,
    ...(spec.method === undefined ? {} : { method: spec.method }),
    ...(spec.raw === undefined ? {} : { raw: spec.raw }),
    ...(spec.walk === undefined ? {} : { walk: spec.walk }),
    templated: false,
  };
  return { ...step, templated: holdsTemplate([step.path, step.query, step.headers, step.body, step.expect, step.repeat]) };
}

function sentHeaders(headers: Readonly<Record<string, string | undefined>>): Record<string, string> {
  return Object.fromEntries(Object.entries(headers).filter((entry): entry is [string, string] => entry[1] !== undefined));
}
