// The only module that touches @stoplight/prism-http's request pipeline and fp-ts: everything else sees
// plain promises and MockResponse values.
import type { Operation } from '../contract/operation.js';
import { type ErrorCode, mockError } from './error-codes.js';
import type { MockResponse } from './handler.js';
import type { RawQuery } from './connection/read-request.js';

export interface PrismRequest {
  readonly method: string;
  /** Relative to the base address, as Prism's router expects (it ignores the server's /v1). */
  readonly path: string;
  readonly query: RawQuery;
  readonly headers: Readonly<Record<string, string | string[] | undefined>>;
  readonly body: unknown;
}

type PrismModule = typeof import('@stoplight/prism-http');
type PrismInstance = ReturnType<PrismModule['createInstance']>;

// Prism's problem types, by the part after '#', mapped to the mock's codes. Prism answers 422 for a bad
// request; the contract documents 400, so validation problems become validation_failed.
const PRISM_PROBLEMS: Readonly<Record<string, ErrorCode>> = {
  NO_PATH_MATCHED_ERROR: 'not_found',
  NO_RESOURCE_PROVIDED_ERROR: 'not_found',
  NO_SERVER_MATCHED_ERROR: 'not_found',
  NO_SERVER_CONFIGURATION_PROVIDED_ERROR: 'not_found',
  NOT_FOUND: 'not_found',
  NO_METHOD_MATCHED_ERROR: 'method_not_allowed',
  UNPROCESSABLE_ENTITY: 'validation_failed',
  INVALID_CONTENT_TYPE: 'invalid_content_type',
  UNAUTHORIZED: 'invalid_api_key',
  NOT_ACCEPTABLE: 'not_acceptable',
};

// The mock has already authenticated and validated the request against the same contract.
const CONFIG = {
  checkSecurity: false,
  validateRequest: false,
  validateResponse: false,
  errors: false,
  upstreamProxy: undefined,
  isProxy: false,
  mock: { dynamic: false },
} as const;

let instance: Promise<PrismInstance> | undefined;

/**
 * Loads Prism (≈1.5 s cold, mostly faker) once. The mock calls this after it starts listening, so the
 * stateful operations answer at once and Prism is warm before anyone needs it.
 */
export function warmPrism(): Promise<unknown> {
  instance ??= import('@stoplight/prism-http').then((prism) => prism.createInstance(CONFIG, { logger: silentLogger() as never }));
  return instance;
}

/** What Prism's own Prefer header chooses: a documented status, a named example, or a body made from the schema. */
export interface PrismChoice {
  readonly code?: number;
  readonly exampleKey?: string;
  readonly dynamic?: boolean;
}

/**
 * Prism's mocked answer for an operation the mock keeps no state for, or, with `choice.code`, the contract's
 * example of that documented status for any operation (the Prefer: code=NNN header).
 */
export async function mockWithPrism(
  operation: Operation,
  request: PrismRequest,
  choice: PrismChoice = {},
): Promise<MockResponse> {
  const prism = (await warmPrism()) as PrismInstance;
  const result = await prism.request(
    {
      method: request.method.toLowerCase() as never,
      url: { path: request.path, query: request.query as Record<string, string | string[]> },
      headers: request.headers as Record<string, string>,
      body: request.body,
    },
    [operation.prismOperation as never],
    // A fresh mock config each request: Prism writes the request's Accept into it (config.mediaTypes) and reads it
    // back on every later request, so a shared one answered every operation by the first request's Accept.
    { ...CONFIG, mock: { dynamic: choice.dynamic ?? false, code: choice.code, exampleKey: choice.exampleKey } },
  )();
  if (result._tag === 'Left') throw fromProblem(result.left as Error & { status?: number; detail?: string });
  const { statusCode, headers = {}, body } = result.right.output;
  const contentType = Object.entries(headers).find(([name]) => name.toLowerCase() === 'content-type')?.[1];
  return {
    status: statusCode,
    body: typeof body === 'string' ? body : body === undefined ? '' : JSON.stringify(body),
    headers: contentType ? { 'Content-Type': contentType } : {},
  };
}

/** The value of the contract's first example for a documented status of the operation, as Prism read it. */
export function contractExample(operation: Operation, status: number): unknown {
  const responses = (operation.prismOperation as PrismOperationExamples).responses ?? [];
  const response = responses.find((r) => r.code === String(status)) ?? responses.find((r) => r.code === `${String(status)[0]}XX`);
  return response?.contents?.flatMap((media) => media.examples ?? [])[0]?.value;
}

/**
 * The names of the examples (`examples:` keys; a lone `example:` is named `default`, as Prism reads them) of the
 * response Prism answers with: the one for `status`, or without it the lowest 2xx (a `2XX` range when none is
 * listed), else `default`. Another response's example is no answer: Prism says 404 for it.
 */
export function exampleNames(operation: Operation, status?: number): string[] {
  const responses = (operation.prismOperation as PrismOperationExamples).responses ?? [];
  const byCode = (code: string) => responses.find((r) => r.code.toUpperCase() === code);
  const chosen =
    (status === undefined
      ? (responses.filter((r) => /^2\d\d$/.test(r.code)).sort((a, b) => a.code.localeCompare(b.code))[0] ?? byCode('2XX'))
      : (byCode(String(status)) ?? byCode(`${String(status)[0]}XX`))) ?? byCode('DEFAULT');
  return [...new Set(chosen?.contents?.flatMap((m) => m.examples?.map((e) => e.key ?? '') ?? []) ?? [])];
}

interface PrismOperationExamples {
  readonly responses?: readonly {
    readonly code: string;
    readonly contents?: readonly { readonly examples?: readonly { readonly key?: string; readonly value?: unknown }[] }[];
  }[];
}

// Prism sometimes wraps one problem in another ("We tried default response, but we got …#NOT_ACCEPTABLE"), so
// the type is looked for anywhere in the problem, and its URLs are left out of the message people read.
function fromProblem(problem: Error & { status?: number; detail?: string }) {
  const text = `${problem.name} ${problem.message} ${problem.detail ?? ''}`;
  const type = Object.keys(PRISM_PROBLEMS).find((known) => text.includes(`#${known}`));
  const message = trimEndColons(`${problem.message}: ${problem.detail ?? ''}`.replace(PROBLEM_URL, ''));
  return mockError(type === undefined ? 'unmockable_operation' : (PRISM_PROBLEMS[type] as ErrorCode), message);
}

// A loop, not /[:\s]+$/: Prism's detail may quote the request, and that regex retries from every space of a run.
function trimEndColons(text: string): string {
  let end = text.length;
  while (end > 0 && (text[end - 1] === ':' || text[end - 1]?.trim() === '')) end--;
  return text.slice(0, end);
}

const PROBLEM_URL = /https:\/\/stoplight\.io\/prism\/errors#[A-Z_]+:\s*/g;

// Prism logs through pino, and calls a `success` level pino does not have.
function silentLogger() {
  const noop = () => {};
  const logger: Record<string, unknown> = {};
  for (const level of ['trace', 'debug', 'info', 'warn', 'error', 'fatal', 'success', 'log']) logger[level] = noop;
  logger.child = () => logger;
  return logger;
}
