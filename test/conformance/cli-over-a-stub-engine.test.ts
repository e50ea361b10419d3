import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import type { RunResult } from '../../src/conformance/run-result.js';
import { runCli } from './run-cli.js';

const REASON = 'every request sent with your key got 401: check --token or PETSTORE_API_KEY';

const passed: unknown[] = [];

// The engine decides that a run stops on its configuration, and implements --max-failures; this file checks what
// the CLI passes to it and what the CLI and the reporters make of a stopped result, so the engine is replaced by
// one that records its options, stops every run and hands the result to the reporters.
vi.mock('../../src/conformance/run-conformance.js', () => ({
  runConformance: async (options: {
    reporters: { onRunEnd?: (r: RunResult, c: unknown) => Promise<void> }[];
    reporterContext: unknown;
  }) => {
    passed.push(options);
    const result = {
      tool: { name: 'conformance', version: '1.0.0' },
      target: 'http://127.0.0.1:1/v1',
      contract: { file: 'openapi.yaml', title: 'Pet Store API', version: '1.0.0' },
      startedAt: '2026-01-01T00:00:00.000Z',
      durationMs: 5,
      settings: { failOn: 'medium', seed: 42 },
      verdict: 'failed',
      stopped: { kind: 'configuration', reason: REASON },
      causes: [],
      hints: [],
      totals: {
        scenarios: 0,
        passed: 0,
        failed: 0,
        skipped: 0,
        exchanges: 3,
        findings: 0,
        blockingFindings: 0,
        observations: 0,
        bySeverity: { critical: 0, high: 0, medium: 0, low: 0 },
      },
      coverage: [],
      scenarios: [],
    } as unknown as RunResult;
    for (const reporter of options.reporters) await reporter.onRunEnd?.(result, options.reporterContext);
    return result;
  },
}));

describe('a run the engine stopped on its configuration', () => {
  it('exits 2 with the one line that names the cause, and every report says so', async () => {
    const run = await runCli(['--target', 'http://127.0.0.1:1/v1']);
    expect(run.code).toBe(2);
    expect(run.err).toBe(`conformance: ${REASON}\n`);
    expect(run.out).toContain(`Stopped: ${REASON}`);
    expect(run.out).not.toMatch(/Verdict: (PASSED|FAILED)/);
    const junit = await readFile(join(run.reportDir, 'junit.xml'), 'utf8');
    expect(junit).toMatch(/<error message="every request sent with your key got 401/);
    expect(junit).not.toContain('<failure');
    expect(await readFile(join(run.reportDir, 'summary.md'), 'utf8')).toContain(
      '> **Stopped:** every request sent with your key got 401: check --token or PETSTORE\\_API\\_KEY',
    );
    expect(await readFile(join(run.reportDir, 'report.html'), 'utf8')).toContain(
      `<div class="banner" id="stopped">Stopped: ${REASON}</div>`,
    );
  });

  it('passes --max-failures and the HTTP settings (-H, --insecure, --ca, --max-response-bytes) to the engine', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'ca-'));
    const pem = '-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n';
    await writeFile(join(dir, 'ca.pem'), pem);
    passed.length = 0;
    await runCli([
      '--target',
      'http://127.0.0.1:1/v1',
      '--max-failures',
      '3',
      '-H',
      'X-Team: blue',
      '--header',
      'X-Trace:  a:b ',
      '--insecure',
      '--ca',
      join(dir, 'ca.pem'),
      '--max-response-bytes',
      '2MiB',
    ]);
    expect(passed[0]).toMatchObject({
      maxFailures: 3,
      http: { headers: { 'x-team': 'blue', 'x-trace': 'a:b' }, insecure: true, ca: pem, maxResponseBytes: 2 * 1024 * 1024 },
    });
    passed.length = 0;
    await runCli(['--target', 'http://127.0.0.1:1/v1']);
    expect(passed[0]).toMatchObject({
      maxFailures: undefined,
      http: { headers: {}, insecure: false, ca: undefined, maxResponseBytes: 10 * 1024 * 1024 },
    });
  });
});
