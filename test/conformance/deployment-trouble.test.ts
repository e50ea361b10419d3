import { readFile } from 'node:fs/promises';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { createServer as createTlsServer } from 'node:https';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createMockServer, type MockServer } from '../../src/mock/create-mock-server.js';
import { startMutatingProxy } from '../support/mutating-proxy.js';
import { isListPets } from '../support/pet-mutations.js';
import { findAll, parseXml } from '../support/parse-xml.js';
import { issuedBy, selfSigned } from '../support/test-certificates.js';
import { type CliRun, runCli } from './run-cli.js';
import { useMutatedMock } from './use-mutated-mock.js';

const servers: Server[] = [];
afterAll(async () => {
  for (const server of servers) server.closeAllConnections();
  await Promise.all(servers.map((s) => new Promise((resolve) => s.close(resolve))));
});

/** A target on 127.0.0.1:0 that answers every request with `answer`, and counts them. */
async function deployment(
  answer: (req: IncomingMessage, res: ServerResponse, origin: string) => void,
  tls?: { key: Buffer; cert: string },
): Promise<{ url: string; requests: () => number }> {
  let requests = 0;
  let origin = '';
  const handler = (req: IncomingMessage, res: ServerResponse) => {
    requests++;
    req.resume();
    answer(req, res, origin);
  };
  const server = (tls ? createTlsServer(tls, handler) : createServer(handler)) as Server;
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `${tls ? 'https' : 'http'}://127.0.0.1:${(server.address() as { port: number }).port}`;
  return { url: `${origin}/v1`, requests: () => requests };
}

const LOGIN_PAGE = '<!doctype html><html><body><form action="/login"><input name="user"></form></body></html>';
const html = (res: ServerResponse, status: number, headers: Record<string, string> = {}) =>
  res.writeHead(status, { 'content-type': 'text/html; charset=utf-8', ...headers }).end(LOGIN_PAGE);

const read = (run: CliRun, file: string) => readFile(join(run.reportDir, file), 'utf8');
const ALL_REPORTERS = ['--reporter', 'console,json,junit,html,markdown'];

describe('a deployment that is not the API stops the run after the probe', () => {
  it.each([
    [
      'single sign-on on another host (302)',
      (res: ServerResponse) =>
        res.writeHead(302, { location: 'https://sso.example.test/login?return=%2Fv1%2Fpets&state=s3cr3t' }).end(),
      /redirected \(302\) to https:\/\/sso\.example\.test\/login: a sign-in page/,
    ],
    [
      'a sign-in page on the same host (303)',
      (res: ServerResponse) => res.writeHead(303, { location: '/auth/sign-in' }).end(),
      /redirected \(303\) to http:\/\/127\.0\.0\.1:\d+\/auth\/sign-in/,
    ],
    [
      'a login page that answers 200 text/html',
      (res: ServerResponse) => html(res, 200),
      /answered HTML \(200, text\/html\) where the contract documents JSON/,
    ],
  ])('%s: exit 2, one line naming the cause and what to check, a few requests', async (_, answer, line) => {
    const target = await deployment((_req, res) => answer(res));
    const run = await runCli(['--target', target.url, ...ALL_REPORTERS]);
    expect(run.code).toBe(2);
    expect(run.err).toMatch(line);
    expect(run.err).toContain('check --target');
    expect(run.err.split('\n')).toHaveLength(2);
    // Where the redirect pointed, without its query: state and return addresses stay out of the line.
    expect(run.err).not.toContain('s3cr3t');
    expect(target.requests()).toBeLessThanOrEqual(20);
    const report = await run.report();
    expect(report.stopped?.kind).toBe('configuration');
    expect(report.scenarios.filter((s) => s.outcome !== 'skipped').map((s) => s.id)).toEqual(['probe/target']);
    const errors = findAll(parseXml(await read(run, 'junit.xml')), 'error');
    expect(errors.map((e) => e.attributes.type)).toEqual(['configuration']);
    expect(await read(run, 'summary.md')).toContain('STOPPED (configuration error)');
    // The stop is the cause: the probe's findings that made it are not a likely cause of a contract failure.
    expect(report.causes).toEqual([]);
    expect(await read(run, 'summary.md')).not.toContain('Likely cause');
    expect(run.out).not.toContain('Likely cause');
  });

  it.each([
    ['503 with Retry-After and an HTML page', 503, { 'retry-after': '120' }, 'Retry-After: 120'],
    ['502 from the gateway, no Retry-After', 502, {}, 'no Retry-After'],
    ['504 from the gateway', 504, { 'retry-after': '30' }, 'Retry-After: 30'],
  ])('%s on every operation: exit 3, the line shows Retry-After', async (_, status, headers, shown) => {
    const target = await deployment((_req, res) => html(res, status, headers));
    const run = await runCli(['--target', target.url, ...ALL_REPORTERS]);
    expect(run.code).toBe(3);
    expect(run.err).toContain(`every probed operation answered ${status} `);
    expect(run.err).toContain(`(${shown}): the target is not serving now`);
    expect(target.requests()).toBeLessThanOrEqual(20);
    const report = await run.report();
    expect(report.stopped).toMatchObject({ kind: 'unavailable', reason: expect.stringContaining(shown) });
    expect(findAll(parseXml(await read(run, 'junit.xml')), 'error').map((e) => e.attributes.type)).toEqual(['unavailable']);
    expect(run.out).toContain('Verdict: STOPPED (the target is not serving now, not a contract failure)');
    expect(await read(run, 'report.html')).toContain(shown);
    expect(await read(run, 'summary.md')).toContain('STOPPED (target unavailable)');
    expect(report.causes).toEqual([]);
  });

  const runAgainst = useMutatedMock();

  it('a server that answers HTML on one operation only is judged: a contract failure, exit 1', async () => {
    const run = await runAgainst(
      {
        response: (res, req) => (isListPets(req) ? { ...res, headers: { 'content-type': 'text/html' }, body: LOGIN_PAGE } : res),
      },
      ['--no-generate', '--case', 'get-pet/*'],
    );
    expect(run.code).toBe(1);
    const report = await run.report();
    expect(report.stopped).toBeUndefined();
    const probe = report.scenarios[0]?.findings ?? [];
    expect(probe.flatMap((f) => [f.checkId, ...f.consequences.map((c) => c.checkId)])).toContain('content-type-json');
  });

  it('a server that answers 503 on one operation only is judged: a contract failure, exit 1', async () => {
    const run = await runAgainst(
      { response: (res, req) => (isListPets(req) ? { status: 503, headers: { 'retry-after': '5' }, body: '' } : res) },
      ['--no-generate', '--case', 'get-pet/*'],
    );
    expect(run.code).toBe(1);
    expect((await run.report()).stopped).toBeUndefined();
  });
});

describe('a certificate the run does not trust', () => {
  const answer503 = (_req: IncomingMessage, res: ServerResponse) => res.writeHead(503, { 'retry-after': '1' }).end();

  it('self-signed: exit 2, the line names the problem and --ca or --insecure; either lets the run through', async () => {
    const identity = await selfSigned();
    const target = await deployment(answer503, identity);
    const run = await runCli(['--target', target.url]);
    expect(run.code).toBe(2);
    expect(run.err).toBe(
      `conformance: Target ${target.url} is not trusted: the certificate is self-signed: give the certificate of its issuer (or the certificate itself) with --ca <file>, or accept any certificate with --insecure (DEPTH_ZERO_SELF_SIGNED_CERT)\n`,
    );
    expect(JSON.parse(await read(run, 'report.json'))).toMatchObject({
      verdict: 'not-run',
      exitCode: 2,
      code: 'target_untrusted',
    });
    // Through, the target's own answers decide: 503 on every operation.
    for (const option of [['--insecure'], ['--ca', identity.certFile]]) {
      const through = await runCli(['--target', target.url, ...option]);
      expect(through.code).toBe(3);
      expect(through.err).toContain('answered 503 Service Unavailable (Retry-After: 1)');
    }
  });

  it.each([
    [
      'issued by an unknown authority',
      async () => ({ served: await issuedBy(await selfSigned()), ca: undefined }),
      /issuer is unknown.*--ca <file>.*--insecure \(UNABLE_TO_VERIFY_LEAF_SIGNATURE\)/,
    ],
    [
      'for another host name',
      async () => {
        const served = await selfSigned({ altName: 'DNS:staging.example.test' });
        return { served, ca: served.certFile };
      },
      /for another host name: give --target a host name the certificate names, or skip the check with --insecure \(ERR_TLS_CERT_ALTNAME_INVALID\)/,
    ],
    [
      'expired',
      async () => {
        const served = await selfSigned({ expired: true });
        return { served, ca: served.certFile };
      },
      /has expired: renew it on the target, or skip the check with --insecure \(CERT_HAS_EXPIRED\)/,
    ],
  ])('%s: exit 2 with the problem and its fix', async (_, make, line) => {
    const { served, ca } = await make();
    const target = await deployment(answer503, served);
    const run = await runCli(['--target', target.url, ...(ca ? ['--ca', ca] : [])]);
    expect(run.code).toBe(2);
    expect(run.err).toMatch(line);
    expect(target.requests()).toBe(0);
  });
});

describe('a plain-HTTP server behind an https:// URL', () => {
  it('exit 2, not 3: the line says to use its http:// URL, which lets the run through', async () => {
    const target = await deployment((_req, res) => res.writeHead(503, { 'retry-after': '1' }).end());
    const https = target.url.replace(/^http:/, 'https:');
    const run = await runCli(['--target', https]);
    expect(run.code).toBe(2);
    expect(run.err).toBe(
      `conformance: Target ${https} does not speak TLS: a plain-HTTP server answered the handshake: give --target ${target.url} (ERR_SSL_WRONG_VERSION_NUMBER)\n`,
    );
    expect(JSON.parse(await read(run, 'report.json'))).toMatchObject({ verdict: 'not-run', exitCode: 2, code: 'target_not_tls' });
    expect(target.requests()).toBe(0);
    const through = await runCli(['--target', target.url]);
    expect(through.code).toBe(3);
    expect(through.err).toContain('answered 503 Service Unavailable (Retry-After: 1)');
  });
});

describe('a target that goes away during the run', () => {
  const mocks: MockServer[] = [];
  afterAll(() => Promise.all(mocks.map((m) => m.close())));

  /**
   * The mock behind a front that passes `answered` requests (the `broken`-th answered with a 500), then goes away:
   * its port closed and its open connections cut, as a crashed pod's.
   */
  async function dyingTarget(answered: number, broken?: number): Promise<string> {
    const mock = await createMockServer({ port: 0, host: '127.0.0.1' });
    mocks.push(mock);
    let seen = 0;
    const front: { proxy?: Awaited<ReturnType<typeof startMutatingProxy>> } = {};
    front.proxy = await startMutatingProxy(mock.url, {
      request: (req) => {
        seen++;
        if (seen > answered) void front.proxy?.close();
        return seen === broken ? { status: 500, headers: { 'content-type': 'application/json' }, body: '{}' } : req;
      },
    });
    return front.proxy.url;
  }

  const CASES = ['--no-generate', '--concurrency', '1', '--reporter', 'json,junit'];

  it('says when it went away and which cases it cut short: errors, not failures, exit 3', async () => {
    const run = await runCli(['--target', await dyingTarget(8), ...CASES]);
    expect(run.code).toBe(3);
    const report = await run.report();
    const gone = report.targetGone;
    const failed = report.scenarios.filter((s) => s.outcome === 'failed').map((s) => s.id);
    expect(gone?.failedBefore).toBe(0);
    expect(gone?.cases).toEqual(expect.arrayContaining(failed));
    expect(gone?.cases.length).toBe(failed.length);
    expect(report.totals.passed).toBeGreaterThan(1);
    expect(run.err).toMatch(
      new RegExp(
        `^conformance: The target stopped answering at ${gone?.at}, [\\d.]+ s into the run \\(.*\\), and never answered again: ${failed.length} cases got no answer from then on .*no case had failed on the contract before\\. Check whether the target crashed or was restarted\\.\\n$`,
      ),
    );
    expect(report.hints[0]).toContain(`stopped answering at ${gone?.at}`);
    const junit = parseXml(await read(run, 'junit.xml'));
    expect(findAll(junit, 'failure')).toEqual([]);
    expect(findAll(junit, 'error').map((e) => e.attributes.type)).toEqual(failed.map(() => 'target-gone'));
    expect(junit.attributes).toMatchObject({ failures: '0', errors: String(failed.length) });
  });

  it('exits 1 when a case had failed on the contract before, and still says the target went away', async () => {
    const run = await runCli(['--target', await dyingTarget(8, 5), ...CASES]);
    expect(run.code).toBe(1);
    const report = await run.report();
    expect(report.targetGone?.failedBefore).toBeGreaterThan(0);
    expect(report.targetGone?.cases.length).toBeGreaterThan(0);
    expect(run.err).toMatch(/The target stopped answering at .* [1-9]\d* cases? had failed on the contract before/);
    const junit = parseXml(await read(run, 'junit.xml'));
    expect(findAll(junit, 'failure').length).toBe(report.targetGone?.failedBefore);
    expect(findAll(junit, 'error').length).toBe(report.targetGone?.cases.length);
  });
});
