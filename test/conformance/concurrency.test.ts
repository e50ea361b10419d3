import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, describe, expect, it } from 'vitest';
import { spawnBin } from '../support/spawn-bin.js';
import { runCli } from './run-cli.js';

describe('the runner on the wire', async () => {
  // Counts connections and requests in flight; every answer is a 200 [] after 10 ms.
  const sockets = new Set<unknown>();
  let inFlight = 0;
  let maxInFlight = 0;
  let requests = 0;
  const server: Server = createServer((req, res) => {
    sockets.add(req.socket);
    requests++;
    maxInFlight = Math.max(maxInFlight, ++inFlight);
    setTimeout(() => {
      inFlight--;
      res.writeHead(200, { 'content-type': 'application/json' }).end('[]');
    }, 10);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  afterAll(() => new Promise((resolve) => server.close(resolve)));
  const target = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;

  it('keeps at most --concurrency requests in flight, over as many kept-alive connections', async () => {
    const run = await runCli(['--target', target, '--concurrency', '2', '--reporter', 'json', '--no-generate']);
    expect(run.code).toBe(1);
    expect(requests).toBeGreaterThan(10);
    expect(maxInFlight).toBe(2);
    expect(sockets.size).toBeLessThanOrEqual(2);
  });

  it('gives each auth case a connection of its own, still with at most --concurrency requests in flight', async () => {
    sockets.clear();
    maxInFlight = 0;
    const run = await runCli(['--target', target, '--concurrency', '2', '--reporter', 'json', '--generate', 'auth']);
    const dedicated = (await run.report()).scenarios.filter((s) => s.kind === 'auth' && s.id.endsWith('-connection')).length;
    expect(dedicated).toBeGreaterThan(10);
    expect(maxInFlight).toBe(2);
    // The pool's two, plus one per auth case (closed when the case ends).
    expect(sockets.size).toBeGreaterThanOrEqual(dedicated);
    expect(sockets.size).toBeLessThanOrEqual(dedicated + 2);
  });
});

describe('npm run conformance:mock', () => {
  it('starts a mock on a free port and passes the whole suite against it', async () => {
    const run = spawnBin('conformance-mock', ['--reporter', 'console']);
    const { code, stdout } = await run.exited;
    expect(stdout).toMatch(/Verdict: PASSED/);
    expect(stdout).toMatch(/http:\/\/127\.0\.0\.1:\d+\/v1/);
    expect(code).toBe(0);
  });
});
