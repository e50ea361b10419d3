import { join } from 'node:path';
import { BUILT_IN_CHECKS } from '../src/conformance/judge/checks/built-in-checks.js';
import { createRunMemory } from '../src/conformance/judge/checks/check.js';
import { createHttpClient, type HttpClient } from '../src/conformance/http/create-http-client.js';
import { createJudge } from '../src/conformance/judge/create-judge.js';
import type { Exchange } from '../src/conformance/http/exchange.js';
import { generateCases } from '../src/conformance/cases/generate/generate-cases.js';
import { loadScenarios } from '../src/conformance/cases/load-scenarios.js';
import { receivedResponse } from '../src/conformance/http/received-response.js';
import { runScenario, type ScenarioContext } from '../src/conformance/run-scenario.js';
import type { Scenario } from '../src/conformance/cases/scenario.js';
import { loadContract } from '../src/contract/load-contract.js';
import { packageRoot } from '../src/contract/package-root.js';
import { DEV_API_KEY } from '../src/mock/mock-options.js';
import { resetMock } from './reset-mock.js';

/**
 * The runner's own work on each request, alone: every case of the default run (no probe) built, judged and
 * recorded over answers recorded from the mock, with no network and nothing else running, µs a request (median
 * over runs). Set beside the overhead measured against the mock, it shows how much of that overhead is this work
 * and how much it slows when the mock, the kernel and the client share the machine's cores with it.
 */
export async function measureRunnerEngine(origin: string, seed: number, runs: number): Promise<number> {
  const contract = await loadContract();
  // One run id for recording and replaying: the bodies name it, and the checks compare them with what was sent.
  const runId = 'bench000';
  const cases = async () => [
    ...(await loadScenarios(join(packageRoot(), 'conformance'), contract, {})),
    ...generateCases(contract, { seed, token: DEV_API_KEY, kinds: undefined, maxCases: undefined }).cases,
  ];
  const context = (client: HttpClient): ScenarioContext => ({
    client,
    target: `${origin}/v1`,
    token: DEV_API_KEY,
    judge: createJudge(
      {
        checks: BUILT_IN_CHECKS,
        settings: { timeoutMs: 10_000, maxResponseTimeMs: 2_000 },
        failOn: 'medium',
        run: createRunMemory(contract),
        redact: client.redact,
        redactPieces: client.redactPieces,
      },
      DEV_API_KEY,
    ),
    failOn: 'medium',
    runId,
  });
  await resetMock(origin);
  const real = createHttpClient({ token: DEV_API_KEY, timeoutMs: 10_000, connections: 1, rateLimit: undefined });
  const answers = new Map<string, Exchange[]>();
  const recording = context(real);
  for (const scenario of await cases()) {
    const kept: Exchange[] = [];
    answers.set(scenario.id, kept);
    await runScenario(scenario, { ...recording, client: recordingClient(real, kept) });
  }
  await real.close();
  const requests = [...answers.values()].reduce((n, list) => n + list.length, 0);
  const times: number[] = [];
  // The first runs let V8 compile the code; each run gets its cases afresh, as a run does.
  for (let i = 0; i < runs + 5; i++) {
    const scenarios = await cases();
    const replaying = context(real);
    const started = performance.now();
    for (const scenario of scenarios)
      await runScenario(scenario, { ...replaying, client: replayingClient(real, answers, scenario) });
    if (i >= 5) times.push(((performance.now() - started) / requests) * 1000);
  }
  return times.sort((a, b) => a - b)[Math.floor(times.length / 2)] as number;
}

function recordingClient(inner: HttpClient, kept: Exchange[]): HttpClient {
  return {
    redact: inner.redact,
    redactPieces: inner.redactPieces,
    send: async (outgoing) => {
      const exchange = await inner.send(outgoing);
      kept.push(exchange);
      return exchange;
    },
    dedicated: () => recordingClient(inner.dedicated(), kept),
    close: () => inner.close(),
  };
}

// Each answer as a fresh response, so that its body is parsed again as in a run.
function replayingClient(real: HttpClient, answers: ReadonlyMap<string, Exchange[]>, scenario: Scenario): HttpClient {
  const list = answers.get(scenario.id) ?? [];
  let next = 0;
  const client: HttpClient = {
    redact: real.redact,
    redactPieces: real.redactPieces,
    send: async () => {
      const exchange = list[next++] as Exchange;
      const { response } = exchange;
      return { ...exchange, response: response && receivedResponse(response.status, response.headers, response.text) };
    },
    dedicated: () => client,
    close: async () => {},
  };
  return client;
}
