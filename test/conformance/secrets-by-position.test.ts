import { randomBytes } from 'node:crypto';
import { createServer } from 'node:http';
import { mkdtemp, readdir, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
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

  it("masks a scenario's {{env.NAME}} credential headers where they are sent, and redacts a long one a target echoes", async () => {
    const partnerToken = `partner-${randomBytes(12).toString('hex')}`;
    const dir = await mkdtemp(join(tmpdir(), 'env-secrets-'));
    const file = join(dir, 'partner.yaml');
    await writeFile(
      file,
      `scenarios:
  - name: a partner lists pets
    description: Given a partner token and key, when a client lists pets with them, then the answer is 200.
    tags: [pets, read-only]
    steps:
      - operation: listPets
        headers: { X-Partner-Token: '{{env.PARTNER_TOKEN}}', X-Api-Key: '{{env.SHORT_KEY}}' }
        expect: { status: 200 }
`,
    );
    const b64 = (text: string) => Buffer.from(text).toString('base64');
    const proxy = await startMutatingProxy(mock.url, {
      response: (_, req) => {
        const sent = req.headers['x-partner-token'] ?? '';
        return {
          status: 500,
          headers: { 'content-type': 'application/json', 'x-echo': b64(sent) },
          body: JSON.stringify({ status: 500, error: 'echo', message: `${sent} ${b64(sent)} ${encodeURIComponent(sent)}` }),
        };
      },
    });
    try {
      const run = await runCli(['--target', proxy.url, '--scenarios', file, '--no-generate'], {
        PARTNER_TOKEN: partnerToken,
        SHORT_KEY: 'abc',
      });
      expect(run.code).toBe(1);
      const written = await everythingWritten(run);
      for (const leak of [partnerToken, b64(partnerToken), partnerToken.slice(-12)]) expect(written).not.toContain(leak);
      const finding = (await run.report()).scenarios.flatMap((s) => s.findings).find((f) => f.file.endsWith('partner.yaml'));
      expect(finding?.request.headers).toMatchObject({ 'x-partner-token': '***', 'x-api-key': '***' });
      expect(finding?.curl).toContain("'x-api-key: ***'");
    } finally {
      await proxy.close();
    }
  });

  it('redacts the password of HTTP_PROXY when the proxy echoes its credentials back', async () => {
    const password = `proxy-${randomBytes(12).toString('hex')}`;
    const basic = Buffer.from(`runner:${password}`).toString('base64');
    // A proxy on loopback that answers every request itself, quoting the Proxy-Authorization it was sent.
    const proxy = createServer((req, res) => {
      const sent = req.headers['proxy-authorization'] ?? '';
      res.writeHead(500, { 'content-type': 'application/json', 'x-proxy-echo': sent });
      res.end(JSON.stringify({ status: 500, error: 'proxy', message: `refused ${sent} (${password})` }));
    });
    await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
    const saved = process.env.HTTP_PROXY;
    process.env.HTTP_PROXY = `http://runner:${password}@127.0.0.1:${(proxy.address() as { port: number }).port}`;
    try {
      const run = await runCli(['--target', 'http://127.0.0.1:9/v1', '--tags', 'auth']);
      expect(run.code).toBe(1);
      const written = await everythingWritten(run);
      expect(written).toContain('refused Basic ***');
      for (const leak of [password, basic, password.slice(-12)]) expect(written).not.toContain(leak);
    } finally {
      if (saved === undefined) delete process.env.HTTP_PROXY;
      else process.env.HTTP_PROXY = saved;
      proxy.closeAllConnections();
      await new Promise((resolve) => proxy.close(resolve));
    }
  });
});
