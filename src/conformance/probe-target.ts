import { AppError, isAppError } from '../contract/app-error.js';
import type { Contract } from '../contract/load-contract.js';
import type { Operation } from '../contract/operation.js';
import { makeCase } from './cases/generate/make-case.js';
import { validRequest } from './cases/generate/valid-request.js';
import { keyedRequest } from './cases/place-credential.js';
import { wrongBase } from './hints/base-path-hint.js';
import { howSent } from './hints/key-refused-hint.js';
import type { RunStop, ScenarioResult } from './run-result.js';
import { handshakeStop } from './http/handshake-problem.js';
import { deploymentStop } from './deployment-stop.js';
import type { Exchange, SentRequest } from './http/exchange.js';
import { observeClient } from './http/observe-client.js';
import { runPool } from './run-pool.js';
import { runScenario, type ScenarioContext } from './run-scenario.js';

export interface ProbeOutcome {
  readonly result: ScenarioResult;
  /** Why the run stops before its cases: its configuration is wrong (exit 2), or the target is not serving now (exit 3). */
  readonly stopped: RunStop | undefined;
  /** Optional operations (x-optional-operation) the target does not serve, with why that is allowed. */
  readonly notServed: ReadonlyMap<string, string>;
}

export const OPTIONAL_OPERATION = 'x-optional-operation';
const NAME = 'the target answers the operations of the contract';
const DESCRIPTION =
  'Given the target, when each safe operation and each operation the contract may lack gets one valid request with the run key, then the answers show the target is reachable, takes the key and serves the paths.';
const REACH_NAME = 'the target answers';
const REACH_DESCRIPTION =
  'Given a contract with no GET operation (and no optional one to probe, or --read-only), when the base URL gets one HEAD request with the run key, then any HTTP answer shows the target is reachable and trusted; its status is not judged, since no operation documents that URL.';
// RFC 9110 §15.5.5, §15.5.6: what a server answers for a path or a method it does not have.
const NOT_SERVED = new Set([404, 405]);
// An answer too large or undecodable to judge has no response, yet its status line shows the target answered.
const heardFrom = (exchange: Exchange) => exchange.response !== undefined || exchange.error?.status !== undefined;

/**
 * The first phase: one valid request with the run's key to each safe operation, and to each operation whose
 * existence the contract leaves open. It tells a target that does not answer at all (exit 3) from a certificate
 * the run does not trust, a wrong key or base URL, or a deployment that is not the API (exit 2), or one that is
 * not serving now (exit 3), before anything is created, and finds the optional operations the target does not serve.
 * Its exchanges are checked like any case's.
 */
export async function probeTarget(
  contract: Contract,
  context: ScenarioContext,
  options: { readonly readOnly: boolean; readonly concurrency: number },
): Promise<ProbeOutcome> {
  const optional = (op: Operation) => typeof op.extensions[OPTIONAL_OPERATION] === 'string';
  const probed = contract.operations.filter(
    (op) => (op.method === 'GET' && !optional(op)) || (optional(op) && !options.readOnly),
  );
  if (probed.length === 0) return { result: await reachTarget(contract, context), stopped: undefined, notServed: new Map() };
  // One request per operation, side by side: an operation that hangs must not hide the others' answers.
  const steps = probed.map((operation) => ({
    ...validRequest(operation),
    ...(optional(operation) ? { observe: `whether the target serves ${operation.operationId}` } : {}),
  }));
  const started = performance.now();
  let heard = false;
  const last = new Map<string, Exchange>();
  const parts = await runPool(steps, options.concurrency, (step) =>
    runScenario(makeCase({ kind: 'probe', id: 'target', name: NAME, description: DESCRIPTION, steps: [step] }), {
      ...context,
      client: observeClient(context.client, (exchange) => {
        if (heardFrom(exchange)) heard = true;
        last.set(step.operation.operationId, exchange);
      }),
    }),
  );
  const result: ScenarioResult = {
    ...(parts[0] as ScenarioResult),
    tags: ['generated', 'probe'],
    outcome: parts.some((part) => part.outcome === 'failed') ? 'failed' : 'passed',
    durationMs: performance.now() - started,
    // Each part is a one-step case: renumber the steps as the operations were listed.
    exchanges: parts.flatMap((part, i) => part.exchanges.map((e) => ({ ...e, step: i + 1 }))),
    findings: parts.flatMap((part, i) => part.findings.map((f) => ({ ...f, step: i + 1 }))),
    observations: parts.flatMap((part, i) => part.observations.map((o) => ({ ...o, step: i + 1 }))),
  };
  const answered = result.exchanges.filter((e) => e.status !== undefined);
  if (!heard) throw notHeard(context.target, [...last.values()], result.findings[0]?.received);
  const notServed = new Map<string, string>();
  for (const exchange of answered) {
    const operation = contract.byId.get(exchange.operationId) as Operation;
    if (optional(operation) && NOT_SERVED.has(exchange.status as number)) {
      notServed.set(
        operation.operationId,
        `${operation.operationId} is not served (HTTP ${exchange.status}); the contract leaves its existence open: ${String(operation.extensions[OPTIONAL_OPERATION]).trim()}`,
      );
    }
  }
  const required = answered.filter((e) => !optional(contract.byId.get(e.operationId) as Operation));
  const answers = required.flatMap(({ operationId }) => {
    const exchange = last.get(operationId);
    const operation = contract.byId.get(operationId) as Operation;
    return exchange?.response ? [{ operation, url: exchange.request.url, response: exchange.response }] : [];
  });
  const reason = stopReason(
    required,
    context.target,
    contract.basePaths,
    [...last.values()].map((e) => e.request),
  );
  // An answer too large to read has a status and no response to tell its shape by: no stop on a part of the answers.
  const shaped = answers.length === required.length ? deploymentStop(answers) : undefined;
  const stopped = reason === undefined ? shaped : { kind: 'configuration' as const, reason };
  return { result, stopped, notServed };
}

/**
 * A contract with nothing the probe may send (only POSTs, say) would otherwise send nothing, and a target that
 * answers would be taken for one that does not. Sending one of its operations could create or change data on a
 * staging server, so the base URL gets a HEAD: safe (RFC 9110 §9.2.1), and every general-purpose server supports it
 * (§9.1). Any status is an answer, a 404 or a 405 too: no operation documents this URL, so nothing is judged. It
 * still tells a target that does not answer (exit 3, with the network error) and a certificate the run does not
 * trust (exit 2) from one that answers, before any case sends a POST; a refused key or a missing base path then
 * shows in the cases and their hints.
 */
async function reachTarget(contract: Contract, context: ScenarioContext): Promise<ScenarioResult> {
  const started = performance.now();
  // The run's key as every case sends it (as the first operation that needs one says): a gateway in front of the API
  // answers the probe as it will the cases.
  const keyed = contract.operations.find((op) => op.auth !== 'none');
  const exchange = await context.client
    .send(keyedRequest('HEAD', `${context.target}/`, keyed, context.token))
    .catch((error: unknown) => {
      // A 429 whose Retry-After ends past --deadline: the target answered, and the cases meet the deadline.
      if (isAppError(error) && error.code === 'deadline_reached') return undefined;
      throw error;
    });
  if (exchange !== undefined && !heardFrom(exchange)) throw notHeard(context.target, [exchange], exchange.error?.message);
  const status = exchange === undefined ? 429 : (exchange.response?.status ?? exchange.error?.status);
  const description = `${REACH_DESCRIPTION} It answered HTTP ${status}.`;
  const {
    steps: _,
    connection: __,
    ...identity
  } = makeCase({ kind: 'probe', id: 'target', name: REACH_NAME, description, steps: [] });
  return {
    ...identity,
    tags: ['generated', 'probe'],
    outcome: 'passed',
    skipReason: undefined,
    durationMs: performance.now() - started,
    exchanges: [],
    findings: [],
    observations: [],
  };
}

/**
 * No answer at all: a certificate the run does not trust, or a plain-HTTP server behind an https:// URL, is its
 * configuration (exit 2), anything else exit 3.
 */
function notHeard(target: string, exchanges: readonly Exchange[], reason: string | undefined): AppError {
  const stop = exchanges.map((e) => handshakeStop(target, e.error?.code)).find((s) => s !== undefined);
  if (stop) return stop;
  return new AppError('target_unreachable', `Target ${target} did not answer: ${reason ?? 'no answer'}`);
}

function stopReason(
  answered: ScenarioResult['exchanges'],
  target: string,
  basePaths: readonly string[],
  sent: readonly SentRequest[],
): string | undefined {
  if (answered.length === 0) return undefined;
  if (answered.every((e) => e.status === 401 || e.status === 403)) {
    return `every request that carried the run's key was refused (${[...new Set(answered.map((e) => e.status))].join(', ')}): check --token or PETSTORE_API_KEY${howSent(sent)}`;
  }
  if (answered.every((e) => e.status === 404) && answered.some((e) => e.documentedAs === undefined)) {
    return `every operation answered 404: ${wrongBase(target, basePaths)}`;
  }
  return undefined;
}
