import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { packageRoot } from '../../src/contract/package-root.js';
import { createMockServer } from '../../src/mock/create-mock-server.js';
import { runCli } from './run-cli.js';

// Issue 21, requirement 1: a status the contract does not fix is observed, never failed. The same-segment contract
// secures every operation but documents no 401: the refusal's status is the server's choice.
describe('auth cases on operations that document no 401', async () => {
  const contract = join(packageRoot(), 'test/contracts/same-segment/openapi.yaml');
  const mock = await createMockServer({ port: 0, host: '127.0.0.1', contract, fixtures: false });
  afterAll(() => mock.close());

  it('observe the refusal instead of failing the server for its status, and still send the cases', async () => {
    const run = await runCli([
      '--target',
      mock.url,
      '--contract',
      contract,
      '--generate',
      'auth',
      '--seed',
      '1',
      '--reporter',
      'json',
    ]);
    const report = await run.report();
    expect(run.code).toBe(0);
    const auth = report.scenarios.filter((s) => s.kind === 'auth');
    expect(auth.length).toBeGreaterThan(10);
    const notes = auth.flatMap((s) => s.observations.map((o) => o.note));
    expect(notes.some((note) => /documents no 401/.test(note))).toBe(true);
  });
});
