import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runConformance } from '../../src/conformance/run-conformance.js';
import type { ObservedInput } from '../../src/conformance/judge/create-judge.js';
import type { Step } from '../../src/conformance/cases/scenario.js';
import { packageRoot } from '../../src/contract/package-root.js';
import { DEV_API_KEY } from '../../src/mock/mock-options.js';
import { libraryRun } from '../support/library-run.js';
import { startMock } from '../support/start-mock.js';

describe('runConformance as a library', async () => {
  const mock = await startMock();

  it('passes the shipped suite and shows every exchange, with its scenario and step, to onExchange', async () => {
    const seen: { input: ObservedInput; scenario: string; step: Step }[] = [];
    const result = await runConformance(
      libraryRun({
        target: mock.url,
        token: DEV_API_KEY,
        scenarios: join(packageRoot(), 'conformance', 'get-pet.yaml'),
        maxResponseTimeMs: 2_000,
        concurrency: 2,
        onExchange: (input, scenario, step) => seen.push({ input, scenario: scenario.name, step }),
      }),
    );
    expect(result.verdict).toBe('passed');
    expect(seen).toHaveLength(result.totals.exchanges);
    expect(new Set(seen.map((s) => s.scenario))).toEqual(new Set(result.scenarios.map((s) => s.name)));
    // Each with the step it came from.
    expect(seen.every(({ input, step }) => step.operation === input.operation)).toBe(true);
    expect(seen.some(({ step }) => step.index > 1)).toBe(true);
    expect(seen.every(({ input }) => input.exchange.request.headers.authorization !== `Bearer ${DEV_API_KEY}`)).toBe(true);
    // The run's memory of other answers is the run's own.
    expect(seen.some(({ input }) => 'run' in input)).toBe(false);
  });
});
