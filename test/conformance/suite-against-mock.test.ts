import { describe, expect, it } from 'vitest';
import { startMock } from '../support/start-mock.js';
import { runCli } from './run-cli.js';

describe('the shipped suite against the mock', async () => {
  const mock = await startMock();

  it('passes with no finding, and exercises every operation with every documented status', async () => {
    const run = await runCli(['--target', mock.url, '--reporter', 'json']);
    const report = await run.report();
    expect(report.scenarios.flatMap((s) => s.findings)).toEqual([]);
    expect(run.code).toBe(0);
    expect(report.totals.skipped).toBe(0);
    const unexercised = report.coverage.filter((row) => row.documented && row.exercised === 0);
    expect(unexercised).toEqual([]);
    expect(report.coverage.filter((row) => row.documented).map((r) => `${r.operationId} ${r.status}`)).toEqual([
      'listPets 200',
      'listPets 401',
      'createPet 201',
      'createPet 400',
      'createPet 401',
      'getPet 200',
      'getPet 401',
      'getPet 404',
      'createMessage 401',
      'createMessage 2XX',
    ]);
    // The mock's 400 for limit=101 is its own choice: observed, counted neither as passed nor as failed.
    const undocumented400 = report.coverage.find((row) => row.operationId === 'listPets' && row.status === '400');
    expect(undocumented400).toMatchObject({ documented: false, passed: 0, failed: 0 });
    expect(undocumented400?.observed).toBe(undocumented400?.exercised);
    expect(undocumented400?.observed).toBeGreaterThan(0);
  });

  it('records what the contract leaves open as observations, not failures', async () => {
    const report = await (await runCli(['--target', mock.url, '--reporter', 'json'])).report();
    const notes = report.scenarios.flatMap((s) => s.observations);
    // The mock's own choices (docs/reference/open-choices.md): 400 for an out-of-range limit, `available` as the default status.
    expect(notes.find((o) => o.note.includes('limit=101'))).toMatchObject({ status: 400 });
    expect(notes.find((o) => o.note.includes('created without one'))?.body).toContain('"status":"available"');
    expect(report.coverage.find((r) => r.operationId === 'listPets' && r.status === '400')).toMatchObject({
      documented: false,
      failed: 0,
    });
  });

  it('--read-only skips every scenario tagged mutating and sends no POST', async () => {
    const before = mock.store.size;
    const report = await (await runCli(['--target', mock.url, '--reporter', 'json', '--read-only'])).report();
    const skipped = report.scenarios.filter((s) => s.outcome === 'skipped');
    expect(skipped.length).toBeGreaterThan(0);
    expect(skipped.every((s) => s.tags.includes('mutating'))).toBe(true);
    // RFC 9110 §9.2.1: the safe methods; HEAD and OPTIONS are the http kind's.
    const safe = ['GET', 'HEAD', 'OPTIONS'];
    expect(report.scenarios.flatMap((s) => s.exchanges).some((e) => !safe.includes(e.method))).toBe(false);
    expect(mock.store.size).toBe(before);
  });

  it('--tags and --skip-tags choose scenarios by tag', async () => {
    const auth = await (await runCli(['--target', mock.url, '--reporter', 'json', '--tags', 'auth'])).report();
    const ran = auth.scenarios.filter((s) => s.outcome !== 'skipped' && s.kind !== 'probe');
    expect(ran.every((s) => s.tags.includes('auth'))).toBe(true);
    // The three auth scenarios of the files and the generated auth cases, which carry their kind as a tag.
    expect(ran.filter((s) => s.source === 'file')).toHaveLength(3);
    expect(ran.filter((s) => s.kind === 'auth').length).toBeGreaterThan(40);
    const noAuth = await (await runCli(['--target', mock.url, '--reporter', 'json', '--skip-tags', 'auth,int64'])).report();
    const notAuth = noAuth.scenarios.filter((s) => s.outcome !== 'skipped');
    expect(notAuth.some((s) => s.tags.includes('auth') || s.tags.includes('int64'))).toBe(false);
    expect(notAuth.length).toBeGreaterThan(5);
  });

  it('refuses a tag no scenario has, and a selection that leaves nothing to run, before sending anything', async () => {
    const before = mock.store.size;
    const typo = await runCli(['--target', mock.url, '--tags', 'auht']);
    expect(typo.code).toBe(2);
    expect(typo.err).toMatch(/--tags auht: no case has this tag \(did you mean auth\?\); the tags: .*mutating/);
    const skipTypo = await runCli(['--target', mock.url, '--skip-tags', 'mutatin']);
    expect(skipTypo.code).toBe(2);
    expect(skipTypo.err).toMatch(/--skip-tags mutatin: no case has this tag \(did you mean mutating\?\)/);
    const nothing = await runCli(['--target', mock.url, '--tags', 'mutating', '--read-only']);
    expect(nothing.code).toBe(2);
    expect(nothing.err).toMatch(/nothing to run/);
    expect(mock.store.size).toBe(before);
  });

  it('passes against an empty store: the limit scenarios create the pets they need', async () => {
    const empty = await startMock({ fixtures: false });
    const run = await runCli(['--target', empty.url, '--reporter', 'json', '--concurrency', '1']);
    expect((await run.report()).scenarios.flatMap((s) => s.findings)).toEqual([]);
    expect(run.code).toBe(0);
    expect(empty.store.size).toBeGreaterThanOrEqual(21);
  });
});
