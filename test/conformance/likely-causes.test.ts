import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { isCreatePet } from '../support/pet-mutations.js';
import { useMutatedMock } from './use-mutated-mock.js';

describe('likely causes: one bug, one headline', () => {
  const runAgainst = useMutatedMock();

  it('a server answering 200 instead of 201 on createPet: the console begins with one cause, each failed case counts it once', async () => {
    const run = await runAgainst(
      { response: (res, req) => (isCreatePet(req) && res.status === 201 ? { ...res, status: 200 } : res) },
      ['--reporter', 'console,json,junit,markdown,html', '--seed', '1'],
    );
    expect(run.code).toBe(1);
    const [first] = run.out.split('\n');
    expect(first).toBe(
      `Likely cause: createPet: expected status 201, got 200 (status-expected), in ${(await run.report()).totals.failed} failed cases`,
    );
    const report = await run.report();
    expect(report.causes).toHaveLength(1);
    expect(report.causes[0]?.cases).toHaveLength(report.totals.failed);
    // What later steps of a case find (the fetch, the list) is shown under the first failure, not beside it.
    for (const scenario of report.scenarios.filter((s) => s.outcome === 'failed')) {
      expect(
        scenario.findings.filter((f) => f.blocking),
        scenario.id,
      ).toHaveLength(1);
    }
    expect(report.totals.blockingFindings).toBe(report.totals.failed);
    const summary = await readFile(join(run.reportDir, 'summary.md'), 'utf8');
    expect(summary).toContain('> **Likely cause:** createPet: expected status 201, got 200');
    const junit = await readFile(join(run.reportDir, 'junit.xml'), 'utf8');
    expect(junit).toMatch(/<failure message="likely cause 1 of 1 \(\d+ cases\): expected status 201, got 200/);
    const html = await readFile(join(run.reportDir, 'report.html'), 'utf8');
    expect(html.indexOf('id="causes"')).toBeGreaterThan(0);
    expect(html.indexOf('id="causes"')).toBeLessThan(html.indexOf('First failures'));
  });

  it('two unrelated bugs are two causes, the one that explains more cases first', async () => {
    const run = await runAgainst(
      {
        response: (res, req) => {
          if (isCreatePet(req) && res.status === 201) return { ...res, status: 200 };
          if (req.method === 'POST' && req.url.startsWith('/v1/messages') && res.status === 401) return { ...res, status: 403 };
          return res;
        },
      },
      ['--seed', '1'],
    );
    const report = await run.report();
    expect(report.causes.map((c) => c.operationId)).toEqual(['createPet', 'createMessage']);
    expect(report.causes[0]?.cases.length).toBeGreaterThan(report.causes[1]?.cases.length ?? 0);
  });
});
