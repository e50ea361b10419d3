// The only module that touches @stoplight/prism-http's request pipeline and fp-ts: everything else sees
// plain promises and MockResponse values.
import type { Operation } from '../contract/operation.js';
import { type ErrorCode, mockError } from './error-codes.js';
import type { MockResponse } from './handler.js';
import type { RawQuery } from './read-request.js';

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

/**
 * Prism's mocked answer for an operation the mock keeps no state for, or, with `code`, the contract's example
 * of that documented status for any operation (the Prefer: code=NNN header).
 */
export async function mockWithPrism(operation: Operation, request: PrismRequest, code?: number): Promise<MockResponse> {
  const prism = (await warmPrism()) as PrismInstance;
  const result = await prism.request(
    {
      method: request.method.toLowerCase() as never,
      url: { path: request.path, query: request.query as Record<string, string | string[]> },
      headers: request.headers as Record<string, string>,
      body: request.body,
    },
    [operation.prismOperation as never],
    code === undefined ? undefined : { ...CONFIG, mock: { dynamic: false, code } },
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

function fromProblem(problem: Error & { status?: number; detail?: string }) {
  const type = problem.name.split('#').pop() ?? problem.name;
  const code = PRISM_PROBLEMS[type] ?? 'unmockable_operation';
  return mockError(code, `${problem.message}: ${problem.detail ?? ''}`.trim());
}

// Prism logs through pino, and calls a `success` level pino does not have.
function silentLogger() {
  const noop = () => {};
  const logger: Record<string, unknown> = {};
  for (const level of ['trace', 'debug', 'info', 'warn', 'error', 'fatal', 'success', 'log']) logger[level] = noop;
  logger.child = () => logger;
  return logger;
}
