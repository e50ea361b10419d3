import { describe, expect, it } from 'vitest';
import { startMock } from '../support/start-mock.js';
import { runCli } from './run-cli.js';

// A field that is an object or null with no type of its own: its sample was the string 'sample', which the
// mock rightly refused (422), so every all-fields case failed.
const CONTRACT = 'test/contracts/optional-object/openapi.yaml';

describe('a field of alternatives (anyOf object or null)', () => {
  it('gets a sample of its first alternative that is not null, which the mock takes', async () => {
    const mock = await startMock({ contract: CONTRACT, fixtures: false });
    const run = await runCli(['--target', mock.url, '--contract', CONTRACT, '--generate', 'valid-bodies']);
    const report = await run.report();
    const allFields = report.scenarios.find((s) => s.id === 'valid-bodies/startJob/all-fields');
    expect(allFields?.outcome).toBe('passed');
    expect(run.code).toBe(0);
  });
});

describe('a query parameter of alternatives (anyOf string or null)', () => {
  it('is not expected to refuse an empty value, which its string alternative takes', async () => {
    const mock = await startMock({ contract: CONTRACT, fixtures: false });
    const run = await runCli(['--target', mock.url, '--contract', CONTRACT, '--generate', 'parameters']);
    const ids = (await run.report()).scenarios.map((s) => s.id);
    expect(ids).toContain('parameters/listJobs/limit/empty');
    expect(ids).not.toContain('parameters/listJobs/name/empty');
    expect(run.code).toBe(0);
  });
});
