import { createServer, type Server } from 'node:http';
import { afterAll, describe, expect, it } from 'vitest';
import { blockingCheckIds, runCli } from './run-cli.js';

// write-only-hidden over HTTP: a server that sends a writeOnly password back fails the run, one that keeps it
// out passes (the same server, the same answers otherwise).
const CONTRACT = 'test/contracts/write-only/openapi.yaml';

const servers: Server[] = [];
afterAll(async () => {
  for (const server of servers) server.closeAllConnections();
  await Promise.all(servers.map((s) => new Promise((resolve) => s.close(resolve))));
});

async function accountServer(echoPassword: boolean): Promise<string> {
  const account = echoPassword ? { name: 'ana', password: 'correct-horse' } : { name: 'ana' };
  const server = createServer((req, res) => {
    const path = new URL(req.url ?? '/', 'http://127.0.0.1').pathname;
    if (path !== '/v1/account') return res.writeHead(404).end();
    if (req.method !== 'GET' && req.method !== 'HEAD') return res.writeHead(405, { allow: 'GET, HEAD' }).end();
    res.writeHead(200, { 'content-type': 'application/json' }).end(req.method === 'HEAD' ? undefined : JSON.stringify(account));
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as { port: number }).port}/v1`;
}

describe('write-only-hidden', () => {
  it('fails a server that answers the writeOnly password, naming where and never its value', async () => {
    const run = await runCli(['--target', await accountServer(true), '--contract', CONTRACT, '--seed', '1', '-r', 'json']);
    const report = await run.report();
    expect(blockingCheckIds(report), run.out).toEqual(['write-only-hidden']);
    expect(run.code).toBe(1);
    const finding = report.scenarios.flatMap((s) => s.findings).find((f) => f.checkId === 'write-only-hidden');
    expect(finding?.title).toContain('body.password');
    expect(JSON.stringify(finding?.received)).not.toContain('correct-horse');
  });

  it('passes the same server keeping it out', async () => {
    const run = await runCli(['--target', await accountServer(false), '--contract', CONTRACT, '--seed', '1', '-r', 'json']);
    expect(blockingCheckIds(await run.report()), run.out).toEqual([]);
    expect(run.code, run.out).toBe(0);
  });
});
