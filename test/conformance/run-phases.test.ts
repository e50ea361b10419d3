import { describe, expect, it } from 'vitest';
import { errorJson, isCreatePet, isListPets } from '../support/pet-mutations.js';
import { useMutatedMock } from './use-mutated-mock.js';

describe('the phases of a run', () => {
  const runAgainst = useMutatedMock();

  it('goes on and reports when one operation never answers but the others do (not "unreachable")', async () => {
    const run = await runAgainst(
      { response: (res, req) => (isListPets(req) && !req.url.includes('?') ? new Promise(() => {}) : res) },
      ['--timeout', '2000', '--no-generate', '--case', 'get-pet/*'],
    );
    expect(run.code).toBe(1);
    const report = await run.report();
    const probe = report.scenarios[0];
    expect(probe?.id).toBe('probe/target');
    expect(probe?.findings.map((f) => f.checkId)).toEqual(['answered']);
    expect(report.scenarios.filter((s) => s.id.startsWith('get-pet/')).every((s) => s.outcome === 'passed')).toBe(true);
  });

  it('folds what follows from a server error under it: one finding per request, its consequences listed', async () => {
    const run = await runAgainst({ request: (req) => (isCreatePet(req) ? errorJson(500) : req) }, [
      '--no-generate',
      '--case',
      'create-pet/a-created-pet-can-be-fetched-by-its-id-with-the-same-fields',
    ]);
    const report = await run.report();
    const findings = report.scenarios.flatMap((s) => s.findings);
    const first = findings.find((f) => f.step === 1);
    expect(first?.checkId).toBe('no-server-error');
    expect(first?.consequences.map((c) => c.checkId)).toEqual(
      expect.arrayContaining(['status-expected', 'status-documented', 'body-expected']),
    );
    expect(findings.filter((f) => f.step === 1)).toHaveLength(1);
    expect(report.totals.findings).toBe(findings.length);
  });

  it('--max-failures stops sending new cases once that many have failed, and reports the rest as skipped', async () => {
    const run = await runAgainst({ request: (req) => (isCreatePet(req) ? errorJson(500) : req) }, [
      '--generate',
      'valid-bodies',
      '--concurrency',
      '1',
      '--max-failures',
      '3',
    ]);
    const report = await run.report();
    expect(report.totals.failed).toBe(3);
    const skipped = report.scenarios.filter((s) => s.outcome === 'skipped');
    expect(skipped.length).toBeGreaterThan(5);
    expect(skipped.every((s) => s.skipReason === '--max-failures 3: reached before this case')).toBe(true);
  });
});
