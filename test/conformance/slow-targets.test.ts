import { describe, expect, it } from 'vitest';
import type { Mutation, ProxyRequest } from '../support/mutating-proxy.js';
import { delay, isGetPet, pathOf } from '../support/pet-mutations.js';
import { useMutatedMock } from './use-mutated-mock.js';

const GIVEN_UP = /^the target timed out on getPet 3 times in a row \(--timeout 2000 ms\)/;

describe('a run against a slow target stays bounded', () => {
  const runAgainst = useMutatedMock();

  it('stops sending getPet after 3 timeouts in a row, reports its other cases as not run, and fails', async () => {
    let getPets = 0;
    // --fail-on critical: the timeouts themselves (high) do not fail the run; leaving cases unsent must. A --timeout
    // of 2 s: at 300 ms a loaded machine lets every probe request time out, and the run is 'did not answer'.
    const run = await runAgainst(
      {
        response: (res, req) => {
          if (!isGetPet(req)) return res;
          getPets++;
          return new Promise(() => {});
        },
      },
      ['--timeout', '2000', '--concurrency', '2', '--fail-on', 'critical'],
    );
    expect(run.code).toBe(1);
    const report = await run.report();
    expect(report.verdict).toBe('failed');
    // The probe's one, the three in a row, and at most one more already on the wire beside them (-c 2).
    expect(getPets).toBeLessThanOrEqual(1 + 3 + 1);
    const notRun = report.scenarios.filter((s) => s.outcome === 'skipped' && GIVEN_UP.test(s.skipReason ?? ''));
    expect(notRun.length).toBeGreaterThan(5);
    expect(notRun.every((s) => s.exchanges.every((e) => e.operationId !== 'getPet'))).toBe(true);
    expect(report.cutShort?.deadline).toBe(false);
    expect(report.hints[0]).toMatch(
      /^The run was cut short, so it fails: \d+ cases not run or not finished: the target timed out on getPet/,
    );
  });

  it('--deadline: starts no case after it, writes the reports with what ran, and exits 3 when nothing failed', async () => {
    // A correct target, 100 ms an answer: the whole run would take most of a minute at -c 1.
    const slowly = async <T>(res: T) => {
      await delay(100);
      return res;
    };
    const run = await runAgainst({ response: slowly }, ['--deadline', '2s', '--concurrency', '1']);
    expect(run.code).toBe(3);
    expect(run.err).toMatch(
      /^conformance: The run was cut short, so it fails: \d+ cases not run or not finished: --deadline 2s reached\./,
    );
    const report = await run.report();
    expect(report.verdict).toBe('failed');
    expect(report.totals.failed).toBe(0);
    expect(report.settings.deadlineMs).toBe(2000);
    const notRun = report.scenarios.filter((s) => s.skipReason?.startsWith('--deadline 2s reached'));
    expect(notRun.length).toBeGreaterThan(100);
    expect(report.totals.exchanges).toBeLessThan(100);
    expect(report.cutShort?.deadline).toBe(true);
    expect(report.hints).toContainEqual(
      expect.stringMatching(/^The run was cut short, so it fails: \d+ cases not run or not finished: --deadline 2s reached\./),
    );
  });

  it('waits for a 429 with Retry-After: 1 and sends the request again: the run passes, and says it was rate-limited', async () => {
    const seen = new Set<string>();
    let refused = 0;
    const run = await runAgainst({
      request: (req) => {
        if (seen.has(kindOf(req))) return req;
        seen.add(kindOf(req));
        refused++;
        return { status: 429, headers: { 'content-type': 'text/plain', 'retry-after': '1' }, body: 'slow down' };
      },
    });
    const report = await run.report();
    expect(report.scenarios.flatMap((s) => s.findings)).toEqual([]);
    expect(report.scenarios.flatMap((s) => s.exchanges).filter((e) => e.status === 429)).toEqual([]);
    expect(JSON.stringify(report.scenarios).includes('slow down')).toBe(false);
    expect(run.code).toBe(0);
    expect(refused).toBeGreaterThan(3);
    expect(report.hints).toContainEqual(
      expect.stringMatching(new RegExp(`^The target rate-limited the run: ${refused} requests were sent again after a 429`)),
    );
  });

  it('stops sending again what a target refuses with 429 every time, once 3 requests were still refused after their 6 resends', async () => {
    // Without a Retry-After it can use, each refused request waited 15.75 s over its 6 resends: hours for a run.
    // Retry-After: 0 keeps this test fast; what is counted is the resends.
    const getPet = refusingGetPet('0');
    const run = await runAgainst(getPet.mutation, ['--concurrency', '1']);
    expect(run.code).toBe(1);
    const report = await run.report();
    const answered = report.scenarios.flatMap((s) => s.exchanges).filter((e) => e.status === 429);
    expect(answered.length).toBeGreaterThan(10);
    // Each 429 in the report was sent once, and only the first three were sent again, 6 times each.
    expect(getPet.refused()).toBe(answered.length + 3 * 6);
  });

  it('does not wait for a Retry-After longer than what is left of --deadline: those cases are not run, never a 429 finding', async () => {
    const getPet = refusingGetPet('8');
    const run = await runAgainst(getPet.mutation, ['--deadline', '5s']);
    const report = await run.report();
    expect(report.scenarios.flatMap((s) => s.findings)).toEqual([]);
    expect(JSON.stringify(report.scenarios).includes('slow down')).toBe(false);
    const rateLimited = report.scenarios.filter((s) =>
      s.skipReason?.startsWith('--deadline 5s reached: a 429 Too Many Requests asked for a wait'),
    );
    expect(rateLimited.length).toBeGreaterThan(0);
    // Each getPet was sent once: none was sent again after a wait.
    expect(report.hints.join('\n')).not.toMatch(/rate-limited the run/);
    expect(getPet.refused()).toBeLessThanOrEqual(rateLimited.length + 1);
    expect(run.code).toBe(3);
  });
});

/** A target whose getPet answers 429 with this Retry-After, every time, and how many it refused. */
function refusingGetPet(retryAfter: string): { mutation: Mutation; refused: () => number } {
  let refused = 0;
  const mutation: Mutation = {
    request: (req) => {
      if (!isGetPet(req)) return req;
      refused++;
      return { status: 429, headers: { 'content-type': 'text/plain', 'retry-after': retryAfter }, body: 'slow down' };
    },
  };
  return { mutation, refused: () => refused };
}

// The first request of each method and path shape (/v1/pets, /v1/pets/<id>, /v1/messages...) is refused once.
function kindOf(req: ProxyRequest): string {
  const segments = pathOf(req).split('/');
  return `${req.method} ${segments.length} ${segments[2]}`;
}
