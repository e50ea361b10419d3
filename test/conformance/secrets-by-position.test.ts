import { randomBytes } from 'node:crypto';
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { RunResult } from '../../src/conformance/run-result.js';
import { startMutatingProxy } from '../support/mutating-proxy.js';
import { findAll, parseXml } from '../support/parse-xml.js';
import { startMock } from '../support/start-mock.js';
import { type CliRun, runCli } from './run-cli.js';

/** Keys a CI job really uses, each a word of the reports' markup, numbers or ids: redacting them as text broke every report. */
const SHORT_KEYS = ['test', 'k', 'failure', 'testcase', 'pet', 'id'];

async function everythingWritten(run: CliRun): Promise<string> {
  const files = await readdir(run.reportDir);
  const texts = await Promise.all(files.map((f) => readFile(join(run.reportDir, f), 'utf8')));
  return [run.out, run.err, ...texts].join('\n');
}

const curlLines = (report: RunResult) =>
  report.scenarios.flatMap((s) => [...s.findings.map((f) => f.curl), ...s.observations.map((o) => o.curl)]).filter(Boolean);

describe('secrets masked by where they are sent', async () => {
  const mock = await startMock({ apiKeys: SHORT_KEYS });

  it.each(SHORT_KEYS)('keeps every report valid, and ids readable, with the key %j', async (key) => {
    const run = await runCli(['--target', mock.url, '--tags', 'auth,read-only'], { PETSTORE_API_KEY: key });
    expect(run.code, run.err).toBe(0);
    const warnings = run.err.split('\n').filter((line) => line.includes('warning'));
    expect(warnings).toHaveLength(key.length < 8 ? 1 : 0);
    const junit = parseXml(await readFile(join(run.reportDir, 'junit.xml'), 'utf8'));
    expect(junit.name).toBe('testsuites');
    expect(findAll(junit, 'testcase').length).toBeGreaterThan(10);
    const report = await run.report();
    expect(report.coverage.map((row) => row.operationId)).toContain('listPets');
    expect(report.scenarios.map((s) => s.id)).toContain('probe/target');
    expect(JSON.stringify(report)).not.toContain('***s');
    expect(await readFile(join(run.reportDir, 'summary.md'), 'utf8')).toContain('listPets');
    // Where the key is sent it is masked, whatever its length: curl lines name the variable instead.
    const curls = curlLines(report);
    expect(curls.length).toBeGreaterThan(0);
    for (const curl of curls) expect(curl).not.toMatch(new RegExp(`Bearer ${key}\\b`));
    expect(curls.some((curl) => curl.includes('Bearer $PETSTORE_API_KEY'))).toBe(true);
    const headers = report.scenarios.flatMap((s) => s.findings.map((f) => f.request.headers.authorization));
    for (const header of headers) expect(header).not.toBe(`Bearer ${key}`);
    // A case id found in a report still selects that case.
    const id = report.scenarios.find((s) => s.source === 'generated' && s.kind !== 'probe')?.id as string;
    const again = await runCli(['--target', mock.url, '--case', id], { PETSTORE_API_KEY: key });
    expect((await again.report()).scenarios.map((s) => s.id)).toContain(id);
  });

  it('masks the session a target sets with Set-Cookie in every report and console line, keeping its name and attributes', async () => {
    const session = randomBytes(24).toString('base64url');
    expect(session).toHaveLength(32);
    // Every answer a 500 (so each is shown in findings with its headers), each setting a session.
    const proxy = await startMutatingProxy(mock.url, {
      response: () => ({
        status: 500,
        headers: { 'content-type': 'application/json', 'set-cookie': `session=${session}; HttpOnly` },
        body: '{"status":500,"error":"internal","message":"down"}',
      }),
    });
    try {
      const run = await runCli(['--target', proxy.url, '--tags', 'auth'], { PETSTORE_API_KEY: 'test' });
      expect(run.code).toBe(1);
      const written = await everythingWritten(run);
      expect(written).not.toContain(session);
      expect(written).not.toContain(session.slice(0, 12));
      const report = await run.report();
      const cookies = report.scenarios.flatMap((s) => s.findings.map((f) => f.response?.headers['set-cookie']));
      expect(cookies.length).toBeGreaterThan(0);
      for (const cookie of cookies) expect(cookie).toBe('session=***; HttpOnly');
      expect(await readFile(join(run.reportDir, 'report.html'), 'utf8')).toContain('session=***; HttpOnly');
    } finally {
      await proxy.close();
    }
  });
});
