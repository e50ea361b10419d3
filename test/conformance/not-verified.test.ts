import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { request } from 'undici';
import { afterAll, describe, expect, it } from 'vitest';
import { createMockServer } from '../../src/mock/create-mock-server.js';
import { DEV_API_KEY } from '../../src/mock/mock-options.js';
import { startMutatingProxy } from '../support/mutating-proxy.js';
import { isCreatePet } from '../support/pet-mutations.js';
import { blockingCheckIds, runCli } from './run-cli.js';

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
      '--target',
      mock.url,
      '--reporter',
      'json,console',
      '--scenarios',
      noScenarios,
      '--case',
      'invalid-bodies/createPet/refused-adds-nothing',
      '--seed',
      '3',
    ]);
    const report = await run.report();
    expect(run.code).toBe(0);
    const notes = report.scenarios.flatMap((s) => s.observations.map((o) => o.note));
    expect(notes).toContainEqual(
      expect.stringMatching(/^not verified \(refused-not-stored\): the list answered a full page of 100/),
    );
    expect(run.out).toMatch(/not verified \(refused-not-stored\)/);
  });

  it('sees a refused create stored anyway through the list filtered by a value its body carries', async () => {
    // Stores a body without categoryId (as category 1), then answers 400 as the contract says.
    const stored = new WeakSet<object>();
    const proxy = await startMutatingProxy(mock.url, {
      request: (req) => {
        if (!isCreatePet(req) || !req.body.includes('conformance refused') || req.body.includes('categoryId')) return req;
        stored.add(req);
        return { ...req, body: req.body.replace(/}$/, ',"categoryId":1}') };
      },
      response: (res, req) =>
        stored.has(req)
          ? {
              status: 400,
              headers: { 'content-type': 'application/json' },
              body: '{"code":"x","message":"categoryId","status":400}',
            }
          : res,
    });
    try {
      const run = await runCli([
        '--target',
        proxy.url,
        '--reporter',
        'json',
        '--scenarios',
        noScenarios,
        '--case',
        'invalid-bodies/createPet/refused-adds-nothing*',
        '--seed',
        '3',
      ]);
      const report = await run.report();
      expect(run.code).toBe(1);
      expect(blockingCheckIds(report)).toEqual(['refused-not-stored']);
      const failed = report.scenarios.filter((s) => s.findings.length > 0).map((s) => s.id);
      expect(failed).toContain('invalid-bodies/createPet/refused-adds-nothing-filtered');
    } finally {
      await proxy.close();
    }
  });
});
