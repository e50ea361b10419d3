import { createServer, type Server, type ServerResponse } from 'node:http';
import { createServer as createTlsServer } from 'node:https';
import { afterAll, describe, expect, it } from 'vitest';
import { type Identity, selfSigned } from '../support/test-certificates.js';
import { runCli } from './run-cli.js';

const servers: Server[] = [];
afterAll(async () => {
  for (const server of servers) server.closeAllConnections();
  await Promise.all(servers.map((s) => new Promise((resolve) => s.close(resolve))));
});

const answer503 = (_req: unknown, res: ServerResponse) => res.writeHead(503, { 'retry-after': '1' }).end();

/** A server on 127.0.0.1 that answers 503 to everything, over TLS with `tls`; its port. */
async function listening(tls?: Identity, port = 0): Promise<number> {
  const server = (tls ? createTlsServer(tls, answer503) : createServer(answer503)) as Server;
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  return (server.address() as { port: number }).port;
}

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

describe('--wait ends at once on a configuration error, with the outcome of a run without it', () => {
  it.each([
    ['a self-signed certificate', async () => [`https://127.0.0.1:${await listening(await selfSigned())}/v1`], 2],
    [
      'a certificate for another host name',
      async () => {
        const other = await selfSigned({ altName: 'DNS:staging.example.test' });
        return [`https://127.0.0.1:${await listening(other)}/v1`, '--ca', other.certFile];
      },
      2,
    ],
    ['a plain-HTTP server behind an https:// URL', async () => [`https://127.0.0.1:${await listening()}/v1`], 2],
  ])('%s', async (_, make, code) => {
    const [target, ...options] = await make();
    const args = ['--target', target as string, ...options, '--no-generate'];
    const without = await runCli(args);
    // Ten minutes: a wait that went on would outlast the test's timeout.
    const waited = await runCli([...args, '--wait', '10m']);
    expect(without.code).toBe(code);
    expect(waited.code).toBe(code);
    expect(waited.err).toBe(`conformance: waiting up to 600s for ${target} to answer\n${without.err}`);
  });

  it('an invalid --target is a usage error before any wait', async () => {
    for (const target of ['http://127.0.0.1:99999/v1', 'not a url', 'ftp://127.0.0.1/v1']) {
      const without = await runCli(['--target', target]);
      const waited = await runCli(['--target', target, '--wait', '10m']);
      expect(without.code).toBe(2);
      expect(waited).toMatchObject({ code: 2, err: without.err });
    }
  });
});

describe('--wait still waits for what may come up', () => {
  it('an https target that starts listening late: the run goes on to its answers', async () => {
    const identity = await selfSigned();
    const port = await freePort();
    setTimeout(() => void listening(identity, port), 600);
    const target = `https://127.0.0.1:${port}/v1`;
    const run = await runCli(['--target', target, '--ca', identity.certFile, '--wait', '20s', '--no-generate']);
    // Its answers, not the wait, decide: 503 on every probed operation.
    expect(run.code).toBe(3);
    expect(run.err).toContain('answered 503 Service Unavailable (Retry-After: 1)');
  });

  it('an https server behind an http:// URL closes the connection, as a proxy whose backend is not up does: waited on', async () => {
    const target = `http://127.0.0.1:${await listening(await selfSigned())}/v1`;
    const run = await runCli(['--target', target, '--wait', '1s', '--no-generate']);
    expect(run.code).toBe(3);
    expect(run.err).toContain(`Target ${target} did not answer within --wait 1s: the target closed the connection`);
  });
});
