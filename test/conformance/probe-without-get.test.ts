import { randomUUID } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { createServer as createTlsServer } from 'node:https';
import { freePort } from '../support/free-port.js';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { selfSigned } from '../support/test-certificates.js';
import { runCli } from './run-cli.js';

// Only POSTs: the probe has no operation it may send without changing data on the target.
const CONTRACT = 'test/contracts/posts-only/openapi.yaml';
const KEY = 'probe-without-get-key-1234';
const ALL_REPORTERS = ['--reporter', 'console,json,junit,html,markdown'];

const servers: Server[] = [];
afterAll(async () => {
  for (const server of servers) server.closeAllConnections();
  await Promise.all(servers.map((s) => new Promise((resolve) => s.close(resolve))));
});

async function listen(server: Server, scheme: 'http' | 'https'): Promise<string> {
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `${scheme}://127.0.0.1:${(server.address() as { port: number }).port}/v1`;
}

const json = (res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) =>
  res.writeHead(status, { 'content-type': 'application/json', ...headers }).end(JSON.stringify(body));

/** A correct server of the contract: POST /v1/events records an event; anything else is a 404 or a 405. */
function recordEvents(seen: string[]) {
  return (req: IncomingMessage, res: ServerResponse) => {
    seen.push(`${req.method} ${req.url} ${req.headers.authorization ?? '-'}`);
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const path = new URL(req.url ?? '/', 'http://127.0.0.1').pathname;
      if (path !== '/v1/events') return json(res, 404, { code: 'not_found', message: 'no such path' });
      if (req.method !== 'POST') return json(res, 405, { code: 'method_not_allowed', message: 'POST only' }, { allow: 'POST' });
      const refuse = (message: string) => json(res, 400, { code: 'invalid_body', message });
      if (!/^application\/json\s*(;|$)/i.test(req.headers['content-type'] ?? '')) return refuse('JSON only');
      let body: unknown;
      try {
        body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
      } catch {
        return refuse('not JSON');
      }
      if (body === null || typeof body !== 'object' || Array.isArray(body)) return refuse('not an object');
      const { kind } = body as { kind?: unknown };
      if (typeof kind !== 'string' || [...kind].length > 40) return refuse('kind: a string of at most 40 characters');
      json(res, 201, { ...body, id: randomUUID() });
    });
  };
}

describe('a contract with no GET operation', () => {
  it('a correct target: the probe sends one HEAD to the base URL with the key, and the run passes (exit 0)', async () => {
    const seen: string[] = [];
    const target = await listen(createServer(recordEvents(seen)), 'http');
    const run = await runCli(['--target', target, '--contract', CONTRACT, '--token', KEY, '--seed', '1', ...ALL_REPORTERS]);
    expect(run.err).toBe('');
    expect(run.code, run.out).toBe(0);
    expect(seen[0]).toBe(`HEAD /v1/ Bearer ${KEY}`);
    // Nothing but the HEAD and the operation the contract has: no guessed GET, no other method.
    expect(seen.filter((line) => !line.startsWith('POST /v1/events')).length).toBe(1);
    const report = await run.report();
    expect(report.verdict).toBe('passed');
    expect(report.stopped).toBeUndefined();
    expect(report.scenarios[0]).toMatchObject({ id: 'probe/target', outcome: 'passed', exchanges: [], findings: [] });
    expect(report.scenarios[0]?.description).toMatch(/HEAD request .* It answered HTTP 404\.$/);
    expect(report.scenarios.length).toBeGreaterThan(10);
    // The HEAD answers no operation: it is not a row of the coverage table.
    expect(report.coverage.map((row) => row.operationId)).toEqual(expect.arrayContaining(['recordEvent']));
    expect(new Set(report.coverage.map((row) => row.operationId))).toEqual(new Set(['recordEvent']));
    const junit = await readFile(join(run.reportDir, 'junit.xml'), 'utf8');
    expect(junit).toContain('<testcase classname="generated: probe" name="the target answers" id="probe/target"');
    for (const file of ['junit.xml', 'report.html', 'summary.md', 'report.json']) {
      expect(await readFile(join(run.reportDir, file), 'utf8')).not.toContain(KEY);
    }
  });

  it('a wrong target still fails on its cases: the HEAD judges nothing (exit 1)', async () => {
    const target = await listen(
      createServer((req, res) => {
        req.resume();
        req.on('end', () => json(res, 500, { code: 'broken', message: 'always' }));
      }),
      'http',
    );
    const run = await runCli(['--target', target, '--contract', CONTRACT, '--seed', '1', '--reporter', 'json']);
    expect(run.err).toBe('');
    expect(run.code).toBe(1);
    expect((await run.report()).scenarios[0]).toMatchObject({ id: 'probe/target', outcome: 'passed' });
  });

  it('a closed port: exit 3, naming the connection error, and no report of cases', async () => {
    const port = await freePort();
    const run = await runCli(['--target', `http://127.0.0.1:${port}/v1`, '--contract', CONTRACT, '--reporter', 'json']);
    expect(run.code).toBe(3);
    expect(run.err).toBe(
      `conformance: Target http://127.0.0.1:${port}/v1 did not answer: nothing accepted the connection (ECONNREFUSED: connect ECONNREFUSED 127.0.0.1:${port})\n`,
    );
    expect(JSON.parse(await readFile(join(run.reportDir, 'report.json'), 'utf8'))).toMatchObject({
      verdict: 'not-run',
      exitCode: 3,
      code: 'target_unreachable',
    });
  });

  it('a self-signed certificate: exit 2 naming --ca and --insecure, before any POST; --insecure lets the run through', async () => {
    const identity = await selfSigned();
    const seen: string[] = [];
    const target = await listen(createTlsServer(identity, recordEvents(seen)) as unknown as Server, 'https');
    const run = await runCli(['--target', target, '--contract', CONTRACT, '--reporter', 'json']);
    expect(run.code).toBe(2);
    expect(run.err).toMatch(
      /is not trusted: the certificate is self-signed: .*--ca <file>.*--insecure \(DEPTH_ZERO_SELF_SIGNED_CERT\)\n$/,
    );
    expect(seen).toEqual([]);
    const through = await runCli(['--target', target, '--contract', CONTRACT, '--insecure', '--seed', '1', '--reporter', 'json']);
    expect(through.code, through.out).toBe(0);
    expect(seen[0]).toMatch(/^HEAD \/v1\/ /);
  });
});
