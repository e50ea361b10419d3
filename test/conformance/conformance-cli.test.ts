import { mkdtemp, readdir, readFile, writeFile } from 'node:fs/promises';
import { createServer as createHttpServer, type Server } from 'node:http';
import { freePort } from '../support/free-port.js';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runConformanceCli } from '../../src/cli/run-conformance-cli.js';
import { createMockServer } from '../../src/mock/create-mock-server.js';
import { spawnBin } from '../support/spawn-bin.js';
import { startMock } from '../support/start-mock.js';
import { runCli } from './run-cli.js';

const SECRET = 'conformance-secret-key-1234';

describe('conformance command', async () => {
  const mock = await startMock({ apiKeys: [SECRET] });

  it('exits 0 against the mock, writes all four reports, and never writes the key', async () => {
    const reportDir = await mkdtemp(join(tmpdir(), 'conformance-cli-'));
    const run = spawnBin('conformance', ['--target', mock.url, '--report-dir', reportDir], { PETSTORE_API_KEY: SECRET });
    const { code, stdout, stderr } = await run.exited;
    expect(stderr).toBe('');
    expect(code).toBe(0);
    expect(stdout).toMatch(/Verdict: PASSED/);
    expect(stdout).toMatch(/^Resources inferred: \/pets \(id: create, list, get\); stateless: \/messages/m);
    expect(stdout).not.toContain('Hint:');
    const files = (await readdir(reportDir)).sort();
    expect(files).toEqual(['junit.xml', 'report.html', 'report.json', 'summary.md']);
    for (const file of files) expect(await readFile(join(reportDir, file), 'utf8')).not.toContain(SECRET);
    expect(stdout).not.toContain(SECRET);
  });

  it('keeps the key out of findings, curl lines and console output when a run fails', async () => {
    // Every default-auth step against a target that knows another key: plenty of findings with requests in them.
    const run = await runCli([
      '--target',
      mock.url,
      '--token',
      `${SECRET}-not-this-one`,
      '--reporter',
      'console,json,junit,markdown,html',
    ]);
    // Every request with the key refused: the configuration is wrong, so the run stops (exit 2) before its cases.
    expect(run.code).toBe(2);
    expect(run.err).toBe(
      "conformance: every request that carried the run's key was refused (401): check --token or PETSTORE_API_KEY\n",
    );
    const report = await run.report();
    expect(report.stopped?.reason).toMatch(/check --token/);
    expect(report.totals.skipped).toBe(report.totals.scenarios - 1);
    expect(report.scenarios[0]?.exchanges.map((e) => e.status)).toContain(401);
    for (const file of await readdir(run.reportDir)) {
      expect(await readFile(join(run.reportDir, file), 'utf8')).not.toContain(`${SECRET}-not-this-one`);
    }
    expect(run.out).not.toContain(`${SECRET}-not-this-one`);
  });

  it('refuses a key no HTTP header can carry, before sending anything, without echoing it', async () => {
    for (const key of [`${SECRET}\n`, 'ключ-key', ` ${SECRET}`]) {
      const petsBefore = mock.store.size;
      const run = await runCli(['--target', mock.url], { PETSTORE_API_KEY: key });
      expect(run.code, JSON.stringify(key)).toBe(2);
      expect(run.err).toMatch(/PETSTORE_API_KEY\) holds characters an HTTP header cannot carry/);
      expect(run.err).not.toContain(key.trim());
      expect(mock.store.size).toBe(petsBefore);
      for (const file of await readdir(run.reportDir)) {
        expect(await readFile(join(run.reportDir, file), 'utf8')).not.toContain(key.trim());
      }
    }
  });

  it('stops with exit 2 when every operation answers 404, saying the base path is likely missing', async () => {
    const petsBefore = mock.store.size;
    const run = await runCli(['--target', mock.url.replace(/\/v1$/, ''), '--token', SECRET, '--reporter', 'console']);
    expect(run.code).toBe(2);
    expect(run.err).toMatch(
      /every operation answered 404: does --target include the API's base path \(e\.g\. http:\/\/127\.0\.0\.1:\d+\/v1\)\?/,
    );
    expect(mock.store.size).toBe(petsBefore);
    const right = await runCli(['--target', mock.url, '--token', SECRET, '--reporter', 'console', '--tags', 'auth']);
    expect(right.out).not.toContain('base path');
  });

  it('after exit 2 or 3, replaces an earlier run’s reports with ones that say why this run did not happen', async () => {
    const passed = await runCli(['--target', mock.url, '--token', SECRET, '--tags', 'auth']);
    expect(passed.code).toBe(0);
    const closedPort = await freePort();
    for (const [args, code, why] of [
      [['--target', `http://127.0.0.1:${closedPort}/v1`], 3, /did not answer: nothing accepted the connection \(ECONNREFUSED/],
      [['--target', mock.url, '--fail-on', 'severe'], 2, /--fail-on must be one of/],
    ] as const) {
      const again = await runCli([...args, '--token', SECRET, '--report-dir', passed.reportDir]);
      expect(again.code).toBe(code);
      const report = JSON.parse(await readFile(join(passed.reportDir, 'report.json'), 'utf8'));
      expect(report).toMatchObject({ verdict: 'not-run', exitCode: code, message: expect.stringMatching(why) });
      const junit = await readFile(join(passed.reportDir, 'junit.xml'), 'utf8');
      expect(junit).toMatch(/<error message="[^"]*" type=/);
      expect(junit).not.toContain('<testcase classname="conformance/');
      for (const file of ['summary.md', 'report.html']) {
        expect(await readFile(join(passed.reportDir, file), 'utf8')).toMatch(/not run|NOT RUN/);
      }
    }
  });

  it('prints an error that quotes control characters on one line, escaped', async () => {
    const run = await runCli(['--target', mock.url, '--fail-on', '\u001b[32mhigh\u0007\nVerdict: PASSED']);
    expect(run.code).toBe(2);
    expect(run.err).toContain("(got '\\e[32mhigh\\x07\\nVerdict: PASSED')");
    expect(run.err.split('\n').filter((l) => l.startsWith('Verdict'))).toEqual([]);
  });

  it('suggests the option meant by a misspelt one', async () => {
    const run = await runCli(['--target', mock.url, '--max-failure', '3']);
    expect(run.code).toBe(2);
    expect(run.err).toMatch(/Unknown option '--max-failure' \(did you mean --max-failures\?\)/);
  });

  it('sends every -H header; colours the console and shows progress only on a terminal (colour not with NO_COLOR)', async () => {
    const seen: (string | undefined)[] = [];
    const target = await startTarget((req, res) => {
      seen.push(req.headers['x-tenant'] as string | undefined);
      res.writeHead(404, { 'content-type': 'application/json' }).end('{"status":404,"error":"not_found","message":"no"}');
    });
    const args = [
      '--target',
      target,
      '--tags',
      'auth',
      '--reporter',
      'console',
      '-H',
      'X-Tenant: blue',
      '--header',
      'x-other: 1',
    ];
    const plain = await runCli(args);
    expect(seen.length).toBeGreaterThan(0);
    expect(new Set(seen)).toEqual(new Set(['blue']));
    expect(plain.out).not.toContain('\u001b[');
    const tty = (await runCliOnTty(args, {})).out;
    expect(tty).toContain('\u001b[31m');
    // A progress line counts the cases on a terminal, and is erased before the next line.
    // biome-ignore lint/suspicious/noControlCharactersInRegex: the erase-line sequence is what is asserted.
    expect(tty).toMatch(/\d+\/\d+ cases? done, \d+ failed\r\u001b\[2K/);
    expect(plain.out).not.toContain('\r');
    const noColor = (await runCliOnTty(args, { NO_COLOR: '1' })).out;
    // biome-ignore lint/suspicious/noControlCharactersInRegex: no SGR (colour) sequence is what is asserted.
    expect(noColor).not.toMatch(/\u001b\[\d+m/);
  });

  it.each([
    [['--header', 'no colon'], /--header must be 'Name: value'/],
    [['--ca', '/nonexistent/ca.pem'], /--ca \/nonexistent\/ca.pem: cannot read it \(ENOENT\)/],
    [['--max-response-bytes', '10GiB'], /--max-response-bytes must be a size/],
    [['--max-failures', '0'], /--max-failures must be a whole number from 1/],
  ])('exits 2 for a bad network option: %j', async (args, message) => {
    const run = await runCli(['--target', 'http://127.0.0.1:1/v1', ...args]);
    expect(run.code).toBe(2);
    expect(run.err).toMatch(message);
  });

  it('never suggests adding the base path to a target that already ends in it', async () => {
    const run = await runCli(['--target', `${mock.url}/v1`, '--token', SECRET, '--reporter', 'console']);
    expect(run.code).toBe(2);
    expect(run.err).toMatch(/every operation answered 404: is --target http:\/\/127\.0\.0\.1:\d+\/v1\/v1 the API's base URL\?/);
  });

  it('refuses a report folder or step summary it cannot write before sending anything', async () => {
    const parent = await mkdtemp(join(tmpdir(), 'conformance-unwritable-'));
    const aFile = join(parent, 'a-file');
    await writeFile(aFile, 'not a folder');
    const petsBefore = mock.store.size;
    const blocked = await runCli(['--target', mock.url, '--report-dir', join(aFile, 'reports')]);
    expect(blocked.code).toBe(2);
    expect(blocked.err).toMatch(/--report-dir .*a-file.reports: cannot write there \(ENOTDIR\)/);
    const summary = await runCli(['--target', mock.url], { GITHUB_STEP_SUMMARY: join(parent, 'missing', 'summary.md') });
    expect(summary.code).toBe(2);
    expect(summary.err).toMatch(/GITHUB_STEP_SUMMARY .*summary\.md: cannot write there \(ENOENT\)/);
    expect(mock.store.size).toBe(petsBefore);
  });

  it('--fail-on decides the exit code: findings below it are reported but do not fail', async () => {
    // Every answer is slower than 1 ms: response-time (low) on each request.
    const args = ['--target', mock.url, '--token', SECRET, '--reporter', 'json', '--max-response-time', '1', '--tags', 'auth'];
    const lenient = await runCli(args);
    const report = await lenient.report();
    expect(report.totals.bySeverity.low).toBeGreaterThan(0);
    expect(report.totals.blockingFindings).toBe(0);
    expect(lenient.code).toBe(0);
    expect((await runCli([...args, '--fail-on', 'low'])).code).toBe(1);
  });

  it('exits 3 with one clear line when the target does not answer', async () => {
    const closedPort = await freePort();
    const run = await runCli(['--target', `http://127.0.0.1:${closedPort}/v1`, '--reporter', 'json']);
    expect(run.code).toBe(3);
    expect(run.err.trim().split('\n')).toEqual([
      expect.stringMatching(/did not answer: nothing accepted the connection \(ECONNREFUSED/),
    ]);
  });

  it.each([
    ['larger than --max-response-bytes', { 'content-type': 'application/json' }, Buffer.alloc(128 * 1024, 0x20)],
    ['in a coding it cannot undo', { 'content-type': 'application/json', 'content-encoding': 'zstd' }, Buffer.from('[]')],
  ])('runs on and reports a target whose every answer is %s: it did answer (exit 1, not 3)', async (_, headers, body) => {
    const server = createHttpServer((__, res) => res.writeHead(200, headers).end(body));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const target = `http://127.0.0.1:${(server.address() as { port: number }).port}/v1`;
      const run = await runCli([
        '--target',
        target,
        '--token',
        SECRET,
        '--reporter',
        'json',
        '--max-response-bytes',
        '64KiB',
        '--no-generate',
        '--read-only',
      ]);
      expect(run.err).not.toMatch(/did not answer/);
      expect(run.code).toBe(1);
      expect((await run.report()).totals.blockingFindings).toBeGreaterThan(0);
    } finally {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    }
  });

  it('exits 2 naming the file, line and field of a bad scenario, before sending anything', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'scenarios-'));
    const text = [
      'scenarios:',
      '  - name: typo',
      '    description: Given a typo, when the file is read, then it is refused.',
      '    steps:',
      '      - operation: listPets',
      '      - operation: listPet',
      '',
    ].join('\n');
    await writeFile(join(dir, 'typo.yaml'), text);
    const before = mock.store.size;
    const run = await runCli(['--target', mock.url, '--scenarios', dir, '--token', SECRET]);
    expect(run.code).toBe(2);
    expect(run.err).toMatch(
      /typo\.yaml: line 6: scenarios\[0\]\.steps\[1\]\.operation: unknown operation 'listPet' \(did you mean listPets\?\)/,
    );
    expect(mock.store.size).toBe(before);
  });

  it.each([
    [['--target', 'ftp://x/v1'], /--target must be an http\(s\) base URL/],
    [
      ['--target', 'http://qa:hunter22@127.0.0.1:1/v1'],
      /--target must not hold credentials \(user:password@\).*\(http:\/\/127\.0\.0\.1:1\/v1\)$/m,
    ],
    [
      ['--target', 'http://127.0.0.1:1/v1?api_key=hunter22'],
      /--target must be a base URL without a query string or a fragment .*give http:\/\/127\.0\.0\.1:1\/v1\. A key the contract sends in the query .* goes through --token or PETSTORE_API_KEY/,
    ],
    [['--target', 'http://127.0.0.1:1/v1/#hunter22'], /--target must be a base URL without a query string or a fragment/],
    [['--target', 'http://127.0.0.1:1/v1?'], /--target must be a base URL without a query string or a fragment/],
    [['--target', 'http://127.0.0.1:1/v1', '--fail-on', 'severe'], /--fail-on must be one of critical, high, medium, low/],
    [['--target', 'http://127.0.0.1:1/v1', '--reporter', 'pdf'], /--reporter pdf: not one of/],
    [['--target', 'http://127.0.0.1:1/v1', '--timeout', 'soon'], /--timeout must be a duration/],
    [
      ['--target', 'http://127.0.0.1:1/v1', '--deadline', '2d'],
      /--deadline must be a duration such as 500, 500ms, 10s or 5m, at most 24h \(got '2d'\)/,
    ],
    [['--target', 'http://127.0.0.1:1/v1', '--deadline', '25h'], /--deadline must be a duration/],
    [[], /--target is required/],
    [['--target', 'http://127.0.0.1:1/v1', '--bogus'], /Unknown option '--bogus'/],
  ])('exits 2 for a usage error: %j', async (args, message) => {
    const run = await runCli(args);
    expect(run.code).toBe(2);
    expect(run.err).toMatch(message);
    expect(`${run.out}${run.err}`).not.toContain('hunter22');
  });

  it('exits 2 without a key', async () => {
    const run = await runCli(['--target', mock.url], { PETSTORE_API_KEY: undefined });
    expect(run.code).toBe(2);
    expect(run.err).toMatch(/no API key: give --token <key> or set PETSTORE_API_KEY/);
  });

  it('runs without a key a contract none of whose operations takes one', async () => {
    const contract = 'test/contracts/server-fields/openapi.yaml';
    const open = await createMockServer({ contract, port: 0, host: '127.0.0.1', log: () => {} });
    try {
      const run = await runCli(['--target', open.url, '--contract', contract, '--seed', '1'], { PETSTORE_API_KEY: undefined });
      expect(run.err).not.toMatch(/no API key/);
      expect(run.code, run.out).toBe(0);
    } finally {
      await open.close();
    }
  });

  it('prints --help with the exit codes, and --version', async () => {
    const help = await runCli(['--help']);
    expect(help.code).toBe(0);
    expect(help.out).toMatch(/--fail-on <severity>/);
    expect(help.out).toMatch(/3 target unreachable/);
    expect((await runCli(['--version'])).out).toMatch(/^\d+\.\d+\.\d+\n$/);
  });
});

const targets: Server[] = [];
afterAll(async () => {
  await Promise.all(targets.map((t) => new Promise((resolve) => t.close(resolve))));
});

async function startTarget(handler: Parameters<typeof createHttpServer>[1]): Promise<string> {
  const server = createHttpServer(handler);
  targets.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as { port: number }).port}/v1`;
}

/** The command as on a terminal (io.isTTY), reports in a fresh folder. */
async function runCliOnTty(args: readonly string[], env: Record<string, string>): Promise<{ out: string }> {
  let out = '';
  const reportDir = await mkdtemp(join(tmpdir(), 'conformance-tty-'));
  await runConformanceCli(['--report-dir', reportDir, ...args], {
    env: { PETSTORE_API_KEY: SECRET, ...env },
    out: (text) => {
      out += text;
    },
    err: () => {},
    isTTY: true,
  });
  return { out };
}
