import type { Server } from 'node:http';
import { createServer as createTlsServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { request } from 'undici';
import { afterAll, describe, expect, it } from 'vitest';
import { packageRoot } from '../../src/contract/package-root.js';
import type { RunResult } from '../../src/conformance/run-result.js';
import { connectProxy } from '../support/connect-proxy.js';
import { selfSigned } from '../support/test-certificates.js';
import { startMock } from '../support/start-mock.js';
import { runCli } from './run-cli.js';

const curlLines = (report: RunResult) => report.scenarios.flatMap((s) => s.findings.map((f) => f.curl));

describe('reproduce lines carry the TLS options and the proxy the run used', async () => {
  const mock = await startMock();
  const identity = await selfSigned();
  const servers: Server[] = [];
  afterAll(() => {
    for (const server of servers) server.close();
  });
  const listen = async (server: Server) => {
    servers.push(server);
    await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
    return (server.address() as AddressInfo).port;
  };
  // The mock over HTTPS, with one bug: createPet answers 200 instead of 201, so every run has findings to show.
  const tls = createTlsServer(identity, async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const { host: _host, connection: _connection, ...headers } = req.headers as Record<string, string>;
    const answer = await request(`${new URL(mock.url).origin}${req.url}`, {
      method: req.method as 'GET',
      headers,
      body: chunks.length > 0 ? Buffer.concat(chunks) : undefined,
    });
    const body = await answer.body.text();
    const status = req.method === 'POST' && answer.statusCode === 201 ? 200 : answer.statusCode;
    res.writeHead(status, { 'content-type': String(answer.headers['content-type'] ?? 'application/json') }).end(body);
  });
  const target = `https://127.0.0.1:${await listen(tls as unknown as Server)}/v1`;
  const scenarios = join(packageRoot(), 'conformance', 'create-pet.yaml');
  const run = (args: readonly string[]) =>
    runCli(['--target', target, '--scenarios', scenarios, '--no-generate', '--reporter', 'json', ...args]);

  it('--ca: each curl line has --cacert <file>; --insecure: -k; the key stays $PETSTORE_API_KEY', async () => {
    const trusted = await run(['--ca', identity.certFile]);
    expect(trusted.code).toBe(1);
    const withCa = curlLines(await trusted.report());
    expect(withCa.length).toBeGreaterThan(0);
    for (const curl of withCa) expect(curl).toContain(`curl -sS -i --cacert '${identity.certFile}' `);
    for (const curl of withCa) expect(curl).not.toContain(' -k ');
    const insecure = await run(['--insecure']);
    expect(insecure.code).toBe(1);
    const withK = curlLines(await insecure.report());
    expect(withK.length).toBeGreaterThan(0);
    for (const curl of withK) expect(curl).toMatch(/^curl -sS -i -k (-X POST )?'https:/);
    expect(withK.some((curl) => curl.includes('"Authorization: Bearer $PETSTORE_API_KEY"'))).toBe(true);
  });

  it('HTTPS_PROXY: each curl line has -x <proxy>, its password masked', async () => {
    const tunnels: string[] = [];
    const proxy = connectProxy(tunnels);
    const proxyUrl = `http://qa:proxy-password-1234@127.0.0.1:${await listen(proxy)}`;
    const saved = process.env.HTTPS_PROXY;
    process.env.HTTPS_PROXY = proxyUrl;
    try {
      const proxied = await run(['--insecure']);
      expect(proxied.code).toBe(1);
      expect(tunnels.length).toBeGreaterThan(0);
      const lines = curlLines(await proxied.report());
      expect(lines.length).toBeGreaterThan(0);
      for (const curl of lines) expect(curl).toContain(`-k -x 'http://qa:***@127.0.0.1:${new URL(proxyUrl).port}' `);
      for (const curl of lines) expect(curl).not.toContain('proxy-password-1234');
    } finally {
      if (saved === undefined) delete process.env.HTTPS_PROXY;
      else process.env.HTTPS_PROXY = saved;
    }
  });
});
