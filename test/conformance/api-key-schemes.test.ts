import { execFile } from 'node:child_process';
import { mkdtemp, readdir, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { promisify } from 'node:util';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { useCrudServer } from './use-crud-server.js';

// test/contracts/api-key: X-API-Key header for most operations, ?api_key= for deleteNote, the notes_key cookie for
// exportNotes, HTTP Basic for getAccount, an oauth2 access token (Bearer) for getProfile, none for getHealth. The CRUD server reads the key where each scheme puts
// it, with code of its own.
const CONTRACT = 'test/contracts/api-key/openapi.yaml';
const KEY = 'sk_live_4eC39HqLyjWDarjtT1zdp7dc';

describe('the runner on a contract whose keys are apiKey schemes (header, query, cookie) and Basic', () => {
  const { runAgainst, failsEach } = useCrudServer([
    '--generate',
    'auth,effects,http',
    '--seed',
    '1',
    '-r',
    'console,json,junit,markdown,html',
  ]);

  it('passes a correct server: the key goes where each operation says, none where security is []', async () => {
    const run = await runAgainst(CONTRACT);
    expect(run.code, run.out).toBe(0);
    const ids = (await run.report()).scenarios.map((s) => s.id);
    // Auth cases for every placed scheme, named for where the key goes; none for the open operation.
    expect(ids).toEqual(
      expect.arrayContaining([
        'auth/listNotes/no-header/fresh-connection',
        'auth/deleteNote/no-key/fresh-connection',
        'auth/exportNotes/key-as-bearer/fresh-connection',
        'auth/getNote/key-prefix/kept-alive-connection',
        'auth/getAccount/key-as-bearer/fresh-connection',
        'auth/getAccount/no-header/fresh-connection',
        'auth/getProfile/no-header/fresh-connection',
        'auth/getProfile/random-key/fresh-connection',
      ]),
    );
    expect(ids.filter((id) => id.startsWith('auth/getHealth/'))).toEqual([]);
  });

  failsEach([
    { contract: CONTRACT, breakage: 'no-auth', check: 'auth-enforced' },
    { contract: CONTRACT, breakage: 'key-anywhere', check: 'auth-enforced' },
    { contract: CONTRACT, breakage: 'key-prefix-taken', check: 'auth-enforced' },
    // Only the oauth2 operation takes any request: its access token travels as Bearer, and is checked like a key.
    { contract: CONTRACT, breakage: 'oauth-open', check: 'auth-enforced' },
  ]);

  it('names where a refused key was sent', async () => {
    const run = await runAgainst(CONTRACT, undefined, { PETSTORE_API_KEY: 'not-the-servers-key' });
    expect(run.code).toBe(1);
    expect(run.out).toMatch(
      /that sent your key got 401: check --token or PETSTORE_API_KEY \(.*sent in the X-API-Key header, as the contract's apiKey scheme 'headerKey' says.*\)/,
    );
  });

  it('stops a run whose every probed request was refused, naming where the key was sent (exit 2)', async () => {
    // The contract without its open health check: every GET the probe sends needs the key.
    const text = await readFile(CONTRACT, 'utf8');
    const keyed = join(await mkdtemp(join(tmpdir(), 'api-key-')), 'openapi.yaml');
    await writeFile(keyed, text.replace(/ {2}\/health:[\s\S]*?(?= {2}\/notes:)/, ''));
    const run = await runAgainst(keyed, undefined, { PETSTORE_API_KEY: 'not-the-servers-key' });
    expect(run.code).toBe(2);
    expect(run.err).toContain(
      "every request that carried the run's key was refused (401): check --token or PETSTORE_API_KEY (sent in the X-API-Key header, as the contract's apiKey scheme 'headerKey' says; sent in the notes_key cookie, as the contract's apiKey scheme 'cookieKey' says; sent as Authorization: Bearer <key>, as the contract's oauth2 scheme 'oauth' says; sent as Authorization: Basic <base64 of the key>, as the contract's http basic scheme 'basicAuth' says)",
    );
  });

  // A key of 8 characters or more is redacted by value in any encoding; a shorter one is masked where it is sent.
  it.each([KEY, 'k3y'])('keeps the key %s out of every report, console line and curl line, wherever it travels', async (key) => {
    const run = await runAgainst(CONTRACT, 'no-auth', { PETSTORE_API_KEY: key }, key);
    expect(run.code, run.out).toBe(1);
    const files = await readdir(run.reportDir);
    const texts = [run.out, run.err, ...(await Promise.all(files.map((f) => readFile(join(run.reportDir, f), 'utf8'))))];
    const all = texts.join('\n');
    // The run's key went out in each place and was recorded masked there.
    expect(all).toContain('api_key=***');
    const encodings =
      key.length >= 8
        ? [
            key,
            Buffer.from(key).toString('base64'),
            Buffer.from(key).toString('hex'),
            encodeURIComponent(key).replaceAll('_', '%5F'),
          ]
        : [`=${key}`, `: ${key}`, `"${key}"`];
    for (const encoded of encodings) expect(all).not.toContain(encoded);
  });

  // deleteNote answers 200 where it documents 204: a finding on a request that carried the key in the query.
  it('writes a curl line that sends $PETSTORE_API_KEY where the scheme puts it, and reproduces the request', async () => {
    const run = await runAgainst(CONTRACT, 'delete-answers-200', { PETSTORE_API_KEY: KEY }, KEY);
    expect(run.code, run.out).toBe(1);
    const curls = (await run.report()).scenarios.flatMap((s) =>
      s.findings.filter((f) => f.operationId === 'deleteNote').map((f) => f.curl),
    );
    const curl = curls.find((line) => line.includes('api_key=')) as string;
    expect(curl).toMatch(/^curl -sS -i -X DELETE 'http:\/\/127\.0\.0\.1:\d+\/v1\/notes\/\d+\?api_key='"\$PETSTORE_API_KEY" /);
    const { stdout } = await promisify(execFile)('sh', ['-c', curl], { env: { ...process.env, PETSTORE_API_KEY: KEY } });
    // Sent with the key, the request is no 401: the record is already gone (404), or deleted again (200).
    expect(stdout).toMatch(/^HTTP\/1\.1 (200|404) /);
  });
});
