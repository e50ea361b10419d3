import { copyFile, mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { defaultContractPath } from '../../src/contract/load-contract.js';
import { call } from '../support/http.js';
import { sendRaw } from '../support/send-raw.js';
import { spawnBin } from '../support/spawn-bin.js';

describe('petstore-mock command', () => {
  it('starts on --port 0, prints the base URL and the development key, logs requests, and stops on SIGTERM', async () => {
    const mock = spawnBin('petstore-mock', ['--port', '0']);
    const [, url] = await mock.waitFor(/Base URL: (http:\/\/127\.0\.0\.1:\d+\/v1)/);
    expect(mock.output()).toContain('API key: petstore-dev-key');
    expect(mock.output()).toContain('Resources inferred: /pets (id: create, list, get); stateless: /messages (nothing reads');
    expect((await call(url as string, 'GET', '/pets?limit=1')).status).toBe(200);
    await mock.waitFor(/GET \/v1\/pets\?limit=1 200 \d+\.\dms/);
    mock.child.kill('SIGTERM');
    expect((await mock.exited).code).toBe(0);
  });

  it('prints each inferred resource in detail with --verbose', async () => {
    const mock = spawnBin('petstore-mock', ['--port', '0', '--verbose', '--contract', 'test/contracts/library-api/openapi.yaml']);
    // The base path its servers give (http://127.0.0.1:4010/api), not the Pet Store's /v1.
    await mock.waitFor(/Base URL: http:\/\/127\.0\.0\.1:\d+\/api\n/);
    await mock.waitFor(/Resources inferred, in detail:/);
    await mock.waitFor(/ {2}\/authors\/\{\}\/books \(books\): id field \S+ .*under \/authors/);
    // Stopped as soon as it has printed: it may not have set its SIGTERM handler yet, so its exit code says nothing.
    mock.child.kill('SIGTERM');
    await mock.exited;
  });

  it('starts on a non-pet contract with the default fixtures file (which does not fit it) and keeps its resources', async () => {
    const mock = spawnBin('petstore-mock', ['--port', '0', '--contract', 'test/contracts/library-api/openapi.yaml']);
    const [, url] = await mock.waitFor(/Base URL: (http:\/\/127\.0\.0\.1:\d+\/api)\n/);
    // Said as what it is, not "Authors: 0 from fixtures/pets.json", which read as a broken file.
    await mock.waitFor(
      /Authors: 0 \(the default fixtures, fixtures\/pets\.json, hold none that fit this contract: give --fixtures <file>\)\n/,
    );
    const made = await call(url as string, 'POST', '/authors', { body: { name: 'Le Guin' } });
    expect(made.status).toBe(201);
    expect((await call(url as string, 'GET', '/authors')).json).toEqual([made.json]);
    mock.child.kill('SIGTERM');
    expect((await mock.exited).code).toBe(0);
  });

  it('names in its banner each option that changes the answers: --watch, --state-file, --delay, and none when none is given', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'petstore-banner-'));
    const state = join(dir, 'state.json');
    const mock = spawnBin('petstore-mock', ['--port', '0', '--watch', '--state-file', state, '--delay', '5-10']);
    await mock.waitFor(/PETSTORE_MOCK_URL=/);
    expect(mock.output()).toMatch(/Active: --watch /);
    expect(mock.output()).toContain(`Active: --state-file ${state} `);
    expect(mock.output()).toContain('Active: --delay 5-10 ');
    mock.child.kill('SIGTERM');
    await mock.exited;
    const plain = spawnBin('petstore-mock', ['--port', '0']);
    await plain.waitFor(/PETSTORE_MOCK_URL=/);
    expect(plain.output()).not.toContain('Active:');
    plain.child.kill('SIGTERM');
    await plain.exited;
  });

  it('accepts keys from --api-key and never prints them, in start-up or request logs', async () => {
    const mock = spawnBin('petstore-mock', ['--port', '0', '--api-key', 'sekret-alpha', '--api-key', 'sekret-beta']);
    const [, url] = await mock.waitFor(/Base URL: (\S+)/);
    expect((await call(url as string, 'GET', '/pets', { auth: 'Bearer sekret-beta' })).status).toBe(200);
    expect((await call(url as string, 'GET', '/pets', { auth: 'Bearer petstore-dev-key' })).status).toBe(401);
    await mock.waitFor(/401/);
    mock.child.kill('SIGINT');
    const { code, stdout, stderr } = await mock.exited;
    expect(code).toBe(0);
    expect(stdout).toContain('API keys: 2 configured (not shown)');
    expect(`${stdout}${stderr}`).not.toMatch(/sekret/);
  });

  it("takes --cors-origin '*' as any page without credentials, and a list of origins (repeated or comma-separated) as only those", async () => {
    const cases: [string[], [string, string | undefined][]][] = [
      [['--cors-origin', '*'], [['http://anything.test:8080', '*']]],
      [
        ['--cors-origin', 'http://a.test,http://b.test'],
        [
          ['http://b.test', 'http://b.test'],
          ['http://other.test', undefined],
        ],
      ],
      [['--cors-origin', 'http://a.test', '--cors-origin', 'http://b.test'], [['http://b.test', 'http://b.test']]],
      [
        [],
        [
          ['http://other.test', undefined],
          ['http://localhost:5173', 'http://localhost:5173'],
        ],
      ],
    ];
    await Promise.all(
      cases.map(async ([args, origins]) => {
        const mock = spawnBin('petstore-mock', ['--port', '0', '--quiet', ...args]);
        const [, url] = await mock.waitFor(/Base URL: (\S+)/);
        const replies = await Promise.all(
          origins.map(([origin]) => call(url as string, 'GET', '/pets?limit=1', { headers: { origin } })),
        );
        mock.child.kill('SIGTERM');
        const { stdout } = await mock.exited;
        const shown = replies.map((reply) => reply.headers['access-control-allow-origin']);
        expect(shown, args.join(' ')).toEqual(origins.map(([, allowed]) => allowed));
        expect(stdout.includes("Warning: --cors-origin '*'"), args.join(' ')).toBe(args.includes('*'));
      }),
    );
  });

  it('answers the Host names given with --allowed-host, and warns of nothing when bound to loopback', async () => {
    const mock = spawnBin('petstore-mock', ['--port', '0', '--allowed-host', 'example.test,.dev.test']);
    const [, url] = await mock.waitFor(/Base URL: (\S+)/);
    const port = Number(new URL(url as string).port);
    const get = (host: string) =>
      sendRaw(
        port,
        `GET /v1/pets/1 HTTP/1.1\r\nHost: ${host}\r\nAuthorization: Bearer petstore-dev-key\r\nConnection: close\r\n\r\n`,
      );
    expect(await get('api.dev.test')).toMatch(/^HTTP\/1\.1 200 /);
    expect(await get('attacker.example')).toMatch(/^HTTP\/1\.1 403 /);
    mock.child.kill('SIGTERM');
    const { stdout } = await mock.exited;
    expect(stdout).not.toContain('Warning');
    const wrong = await spawnBin('petstore-mock', ['--port', '0', '--allowed-host', 'example.test:80']).exited;
    expect(wrong.code).toBe(2);
    expect(wrong.stderr).toContain("--allowed-host must be 'all' or a host name without a port");
  });

  it('reads PETSTORE_API_KEYS, comma-separated', async () => {
    const mock = spawnBin('petstore-mock', ['--port', '0', '--quiet'], { PETSTORE_API_KEYS: 'env-one, env-two' });
    const [, url] = await mock.waitFor(/Base URL: (\S+)/);
    expect((await call(url as string, 'GET', '/pets', { auth: 'Bearer env-two' })).status).toBe(200);
    mock.child.kill('SIGTERM');
    const { stdout } = await mock.exited;
    expect(stdout).not.toMatch(/GET \/v1\/pets/);
  });

  it('prints --help and --version', async () => {
    const help = await spawnBin('petstore-mock', ['--help']).exited;
    expect(help.code).toBe(0);
    for (const option of [
      '--port',
      '--host',
      '--api-key',
      '--cors-origin',
      '--allowed-host',
      '--admin-from-network',
      '--journal-secrets',
      '--fixtures',
      '--no-fixtures',
      '--max-pets',
      '--quiet',
    ]) {
      expect(help.stdout).toContain(option);
    }
    const version = await spawnBin('petstore-mock', ['--version']).exited;
    expect(version.stdout.trim()).toBe('1.0.0');
  });

  it.each([
    [['--bogus'], "Unknown option '--bogus'"],
    [['--port', '99999'], '--port must be a whole number from 0 to 65535'],
    [['--fixtures', 'missing.json'], 'Failed to load fixtures missing.json: ENOENT'],
    // A negative value is the option's value, not another option: its own check names it.
    [['--journal-size', '-1'], '--journal-size must be a whole number from 0 to '],
    // The ceiling follows from the journal's byte budget: a million requests of 15 KB headers was a heap OOM.
    [['--journal-size', '1000000'], "(got '1000000'): the journal's budget of "],
    [
      ['--journal-size', '5000', '--journal-bytes', '1MiB'],
      "--journal-size must be a whole number from 0 to 4096 (got '5000'): the journal's budget of 1048576 bytes",
    ],
    [['--delay', '-5'], "--delay must be ms or min-max ms, e.g. 200 or 100-500 (got '-5')"],
    [['--cors-origin', 'http://localhost:3000/'], "--cors-origin must be '*', 'null' or an origin as a browser sends it"],
  ])('exits 2 with a clear message for %j', async (args, message) => {
    const { code, stderr } = await spawnBin('petstore-mock', ['--port', '0', ...args]).exited;
    expect(code).toBe(2);
    expect(stderr).toContain(message);
  });
});

describe('petstore-mock whose output fails', () => {
  it('keeps serving when the reader of its stdout goes away (EPIPE), and prints its URL in a line to grep', async () => {
    const mock = spawnBin('petstore-mock', ['--port', '0']);
    const [, url] = await mock.waitFor(/^PETSTORE_MOCK_URL=(http:\/\/127\.0\.0\.1:\d+\/v1)$/m);
    // Like `petstore-mock | head -5`: the pipe's reader closes, so each log line the mock writes now fails.
    mock.child.stdout?.destroy();
    for (let i = 0; i < 20; i++) expect((await call(url as string, 'GET', '/pets?limit=1')).status).toBe(200);
    expect(mock.child.exitCode).toBeNull();
    mock.child.kill('SIGTERM');
    expect((await mock.exited).code).toBe(0);
  });
});

describe('petstore-mock --delay', () => {
  it('delays every API answer by the given time, not the admin endpoints', async () => {
    const mock = spawnBin('petstore-mock', ['--port', '0', '--quiet', '--delay', '250-300']);
    const [, url] = await mock.waitFor(/^PETSTORE_MOCK_URL=(\S+)$/m);
    const started = performance.now();
    expect((await call(url as string, 'GET', '/pets?limit=1')).status).toBe(200);
    expect(performance.now() - started).toBeGreaterThanOrEqual(240);
    mock.child.kill('SIGTERM');
    await mock.exited;
  });

  it.each([['300-100'], ['abc'], ['40000'], ['300-400-5000']])('refuses --delay %s with exit 2', async (value) => {
    const { code, stderr } = await spawnBin('petstore-mock', ['--port', '0', '--delay', value]).exited;
    expect(code).toBe(2);
    expect(stderr).toMatch(/--delay must be (a whole number|ms or min-max ms)/);
  });
});

describe('petstore-mock --quiet --watch', () => {
  it('still says why it kept the previous contract, on stderr, as a line of its own', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'quiet-watch-'));
    const contract = join(dir, 'openapi.yaml');
    await copyFile(defaultContractPath(), contract);
    const mock = spawnBin('petstore-mock', ['--port', '0', '--quiet', '--watch', '--contract', contract]);
    await mock.waitFor(/^PETSTORE_MOCK_URL=(\S+)$/m);
    await writeFile(contract, 'x: [');
    // Give the watcher time to settle and reload.
    await new Promise((resolve) => setTimeout(resolve, 1500));
    mock.child.kill('SIGTERM');
    const { stderr } = await mock.exited;
    expect(stderr).toMatch(/^petstore-mock: .*kept the previous contract/m);
    expect(stderr).not.toContain('Warning:');
  });
});
