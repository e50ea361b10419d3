import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { request } from 'undici';
import { afterAll, describe, expect, it } from 'vitest';
import { createMockServer } from '../../src/mock/create-mock-server.js';
import { DEV_API_KEY } from '../../src/mock/mock-options.js';
import { runCli } from './run-cli.js';

/**
 * A correct server that lists oldest first and already holds more pets than a page: the list after refused creates
 * cannot show whether one was stored. The run must say "not verified", with why, not count it a pass.
 */
describe('a check that could not observe what it checks', async () => {
  const mock = await createMockServer({ port: 0, host: '127.0.0.1' });
  afterAll(() => mock.close());
  const noScenarios = await mkdtemp(join(tmpdir(), 'no-scenarios-'));
  for (let i = 0; i < 101; i++) {
    const created = await request(`${mock.url}/pets`, {
      method: 'POST',
      headers: { authorization: `Bearer ${DEV_API_KEY}`, 'content-type': 'application/json' },
      body: JSON.stringify({ name: `Older ${i}`, categoryId: 1 }),
    });
    await created.body.text();
  }

  it('reports "not verified (refused-not-stored)" with the reason when the list answers a full page, and does not fail', async () => {
    const run = await runCli([
      '--target', mock.url, '--reporter', 'json,console', '--scenarios', noScenarios,
      '--case', 'invalid-bodies/createPet/refused-adds-nothing', '--seed', '3',
    ]);
    const report = await run.report();
    expect(run.code).toBe(0);
    const notes = report.scenarios.flatMap((s) => s.observations.map((o) => o.note));
    expect(notes).toContainEqual(expect.stringMatching(/^not verified \(refused-not-stored\): the list answered a full page of 100/));
    expect(run.out).toMatch(/not verified \(refused-not-stored\)/);
  });
});
