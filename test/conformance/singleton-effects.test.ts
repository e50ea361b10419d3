import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createMockServer } from '../../src/mock/create-mock-server.js';
import { type SingletonBreakage, type SingletonServer, startSingletonServer } from '../support/singleton-server.js';
import { blockingCheckIds, namedCheckIds, runCli } from './run-cli.js';

const CONTRACT = 'test/contracts/singletons/openapi.yaml';
const ARGS = ['--contract', CONTRACT, '--generate', 'effects', '--case', 'effects/*', '--seed', '1', '-r', 'json'];

let server: SingletonServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const runAgainst = async (breakage?: SingletonBreakage, args: readonly string[] = ARGS) => {
  server = await startSingletonServer(breakage);
  return runCli(['--target', server.url, ...args]);
};

describe('effect cases of single records (docs/reference/resources.md rule 12)', () => {
  it('pass a correct server, and leave its top-level record as they found it', async () => {
    const run = await runAgainst();
    const report = await run.report();
    expect(blockingCheckIds(report), run.out).toEqual([]);
    expect(run.code, run.out).toBe(0);
    const ids = report.scenarios.map((s) => s.id);
    expect(ids).toContain('effects/getSettings/update-took-effect');
    expect(ids).toContain('effects/getProjectSettings/update-took-effect');
    const top = report.scenarios.find((s) => s.id === 'effects/getSettings/update-took-effect');
    const sent = top?.exchanges.map((e) => `${e.method} ${new URL(e.url).pathname}`);
    expect(sent).toEqual(['GET', 'PUT', 'GET', 'PATCH', 'GET', 'PUT'].map((m) => `${m} /v1/settings`));
    const settings = await fetch(`${server?.url}/settings`, { headers: { authorization: 'Bearer petstore-dev-key' } });
    expect(await settings.json()).toEqual({ theme: 'light', pageSize: 20, signature: 'Sent from Workspace' });
  });

  it('send no other write to a top-level record, which the effects case alone writes and puts back', async () => {
    // A server that keeps any body sent to /settings, valid or not, with a key or without: a refused write that the
    // run sent (invalid-bodies, auth, media-types) would be kept, and the effects case would put back what they left.
    const run = await runAgainst('settings-unchecked', ['--contract', CONTRACT, '--seed', '1', '-r', 'json']);
    const report = await run.report();
    expect(report.scenarios.length, run.out).toBeGreaterThan(100);
    const writes = report.scenarios.filter((s) =>
      s.exchanges.some((e) => new URL(e.url).pathname === '/v1/settings' && !['GET', 'HEAD', 'OPTIONS'].includes(e.method)),
    );
    expect(writes.map((s) => s.id)).toEqual(['effects/getSettings/update-took-effect']);
    const hints = JSON.stringify(report.hints);
    for (const kind of ['valid-bodies', 'invalid-bodies', 'auth', 'media-types'])
      expect(hints).toMatch(
        new RegExp(`Not generated: \\d+ ${kind} cases of replaceSettings: /settings is one record every client shares`),
      );
    const settings = await fetch(`${server?.url}/settings`, { headers: { authorization: 'Bearer petstore-dev-key' } });
    expect(await settings.json()).toEqual({ theme: 'light', pageSize: 20, signature: 'Sent from Workspace' });
  });

  it('send no write under --read-only', async () => {
    const run = await runAgainst(undefined, ['--contract', CONTRACT, '--generate', 'effects,http', '--read-only', '-r', 'json']);
    const report = await run.report();
    expect(report.scenarios.length, run.out).toBeGreaterThan(1);
    const methods = report.scenarios.flatMap((s) => s.exchanges.map((e) => e.method));
    expect(methods.filter((m) => m !== 'GET' && m !== 'HEAD' && m !== 'OPTIONS')).toEqual([]);
  });

  it('write and read a record inside an envelope whole, and say that its PATCH step is not made', async () => {
    // No id tells { data: {...} } from a record whose one field is an object: the runner does not unwrap it.
    const dir = await mkdtemp(join(tmpdir(), 'singleton-envelope-'));
    const contract = join(dir, 'openapi.yaml');
    const text = (await readFile(CONTRACT, 'utf8'))
      .replaceAll('$ref: "#/components/schemas/Settings"', '$ref: "#/components/schemas/SettingsEnvelope"')
      .replace(
        '$ref: "#/components/schemas/SettingsPatch"',
        'type: object, properties: {data: {$ref: "#/components/schemas/SettingsPatch"}}',
      )
      .replace(
        '  schemas:\n',
        '  schemas:\n    SettingsEnvelope: {type: object, required: [data], properties: {data: {$ref: "#/components/schemas/Settings"}}, example: {data: {theme: light, pageSize: 20}}}\n',
      );
    await writeFile(contract, text);
    const mock = await createMockServer({ port: 0, contract, fixtures: false });
    try {
      const only = ['--generate', 'effects', '--case', 'effects/getSettings/*', '-r', 'json'];
      const run = await runCli(['--target', mock.url, '--contract', contract, ...only]);
      const report = await run.report();
      expect(run.code, run.out).toBe(0);
      const top = report.scenarios.find((s) => s.id === 'effects/getSettings/update-took-effect');
      expect(top?.exchanges.map((e) => e.method)).toEqual(['GET', 'PUT', 'GET', 'PUT']);
      expect(JSON.stringify(report.hints)).toContain(
        'Not generated: the PATCH step of effects/getSettings/update-took-effect: updateSettings takes no text or enum field at the top of its body',
      );
      const settings = await fetch(`${mock.url}/settings`, { headers: { authorization: 'Bearer petstore-dev-key' } });
      expect(await settings.json()).toEqual({ data: { theme: 'light', pageSize: 20 } });
    } finally {
      await mock.close();
    }
  });

  it.each([
    { breakage: 'put-ignored', check: 'update-took-effect' },
    { breakage: 'patch-replaces', check: 'update-took-effect' },
    { breakage: 'settings-shared', check: 'others-untouched' },
  ] as const)('fail a server whose $breakage, naming $check', async ({ breakage, check }) => {
    const run = await runAgainst(breakage);
    expect(run.code, run.out).toBe(1);
    expect(namedCheckIds(await run.report())).toContain(check);
  });
});
