import { afterEach, describe, expect, it } from 'vitest';
import type { StyleServer } from '../support/generated-style-servers.js';
import { type KratosBreakage, startKratosServer } from '../support/kratos-server.js';
import { blockingCheckIds, runCli } from './run-cli.js';

// A Go (kratos) contract's writes wrap the record ({"article": {...}}), and its PUT body repeats the path parameter
// beside the record ({"slug", "article"}): that member says which record, so the record is still the one inside
// `article`. And its PUT names fewer fields than the create: what the PUT does not name is not expected back.
const CONTRACT = 'test/contracts/kratos-articles/openapi.yaml';

let server: (StyleServer & { readonly puts: readonly unknown[] }) | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function runAgainst(breakage?: KratosBreakage) {
  server = await startKratosServer(breakage);
  const run = await runCli(['--target', server.url, '--contract', CONTRACT, '--seed', '1', '-r', 'json']);
  return { run, report: await run.report() };
}

describe('writes whose body wraps the record', () => {
  it('passes a correct server, the PUT sent as {"article": {...}} with only the fields it names', async () => {
    const { run, report } = await runAgainst();
    expect(blockingCheckIds(report), run.out).toEqual([]);
    expect(run.code, run.out).toBe(0);
    const update = report.scenarios.find((s) => s.id === 'effects/RealWorld_UpdateArticle/update-took-effect');
    expect(update?.outcome, run.out).toBe('passed');
    // The record inside `article`, never at the top beside it.
    const puts = server?.puts as { article?: Record<string, unknown>; title?: unknown }[];
    expect(puts.some((put) => typeof put.article?.title === 'string')).toBe(true);
    expect(puts.filter((put) => put.title !== undefined)).toEqual([]);
  });

  it('fails a server that reads the record from the body top, naming update-took-effect', async () => {
    const { run, report } = await runAgainst('reads-top-level');
    expect(blockingCheckIds(report), run.out).toContain('update-took-effect');
    expect(run.code).toBe(1);
  });
});
