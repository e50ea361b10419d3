import { describe, expect, it } from 'vitest';
import { startMock } from '../support/start-mock.js';
import { runCli } from './run-cli.js';

// A page size whose maximum is its int32 bound: filling that page took the runner's heap (it aborted).
const CONTRACT = 'test/contracts/unbounded-page/openapi.yaml';

describe('a page size no run can fill', () => {
  it('makes the pagination cases it can, and says which it cannot and why', async () => {
    const mock = await startMock({ contract: CONTRACT, fixtures: false });
    const run = await runCli(['--target', mock.url, '--contract', CONTRACT, '--generate', 'pagination']);
    expect(run.err).toBe('');
    expect(run.code).toBe(0);
    const report = await run.report();
    expect(report.scenarios.filter((s) => s.kind === 'pagination').map((s) => s.id)).toEqual([
      'pagination/listNotes/limit-minimum',
    ]);
    expect(report.hints).toContain(
      "Not generated: pagination cases of listNotes at the largest page (maximum, between): its page size's maximum, 2147483647, is more records than a case creates (1000 at most).",
    );
  });
});
