import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DEV_API_KEY } from '../../src/mock/mock-options.js';
import type { Mutation, ProxyRequest } from '../support/mutating-proxy.js';
import { errorJson, pathOf } from '../support/pet-mutations.js';
import { namedCheckIds } from './run-cli.js';
import { useMutatedMock } from './use-mutated-mock.js';

const EVOLVED = 'test/contracts/evolved-petstore/openapi.yaml';
// replaceAuthor, a PUT, documents 200 and no 204.
const LIBRARY = 'test/contracts/library-api/openapi.yaml';
const isHead = (req: ProxyRequest) => req.method === 'HEAD';
const isOptions = (req: ProxyRequest) => req.method === 'OPTIONS';

interface Broken {
  readonly name: string;
  readonly check: string;
  readonly mutation: () => Mutation;
  readonly contract?: string;
}

/**
 * Servers that mishandle what HTTP asks of every resource, beside the contract: HEAD and OPTIONS, and the end of
 * an answer that can have no content. Each was missed before the http kind (a mutation audit); HEAD served without
 * a key before its head-without-key case.
 */
const BROKEN: readonly Broken[] = [
  {
    name: 'HEAD answered with the GET body after its header block',
    check: 'no-content-after-headers',
    mutation: () => ({
      response: (res, req) => (isHead(req) ? { ...res, body: '[{"id":1,"name":"Rex"}]', wire: { broken: 'stray-bytes' } } : res),
    }),
  },
  {
    name: 'HEAD answered 500',
    check: 'head-options-answered',
    mutation: () => ({ request: (req) => (isHead(req) ? errorJson(500) : req) }),
  },
  {
    name: 'HEAD answered with another Content-Type than GET',
    check: 'head-like-get',
    mutation: () => ({
      response: (res, req) => (isHead(req) ? { ...res, headers: { ...res.headers, 'content-type': 'text/html' } } : res),
    }),
  },
  {
    name: 'HEAD answered with a Content-Length other than the GET of the same pet sends (RFC 9110 §8.6: MUST NOT)',
    check: 'head-like-get',
    mutation: () => ({
      response: (res, req) =>
        isHead(req) && res.headers['content-length'] !== undefined
          ? { ...res, headers: { ...res.headers, 'content-length': String(Number(res.headers['content-length']) + 1) } }
          : res,
    }),
  },
  {
    name: 'HEAD answered 302 where GET answers 200',
    check: 'head-like-get',
    mutation: () => ({
      request: (req) => (isHead(req) ? { status: 302, headers: { location: '/elsewhere' }, body: '' } : req),
    }),
  },
  {
    name: 'OPTIONS answered 500',
    check: 'head-options-answered',
    mutation: () => ({ request: (req) => (isOptions(req) ? errorJson(500) : req) }),
  },
  {
    name: 'OPTIONS drops the connection without an answer',
    check: 'head-options-answered',
    mutation: () => ({
      request: (req) => (isOptions(req) ? { status: 200, headers: {}, body: '', wire: { broken: 'drop' } } : req),
    }),
  },
  {
    name: 'HEAD served without a key (auth bound to GET alone)',
    check: 'auth-enforced',
    mutation: () => ({
      request: (req) =>
        isHead(req) && req.headers.authorization === undefined
          ? { ...req, headers: { ...req.headers, authorization: `Bearer ${DEV_API_KEY}` } }
          : req,
    }),
  },
  {
    name: 'deletePet answers 204 and then writes bytes without a Content-Length',
    check: 'no-content-after-headers',
    contract: EVOLVED,
    mutation: () => ({
      response: (res, req) =>
        req.method === 'DELETE' && res.status === 204
          ? { ...res, body: '{"deleted":true}', wire: { broken: 'stray-bytes' } }
          : res,
    }),
  },
  {
    name: 'replaceAuthor, documented 200 only, answers an undocumented 204 and then writes bytes',
    check: 'no-content-after-headers',
    contract: LIBRARY,
    mutation: () => ({
      response: (res, req) =>
        req.method === 'PUT' ? { ...res, status: 204, body: '{"id":1}', wire: { broken: 'stray-bytes' } } : res,
    }),
  },
];

describe('the runner against servers that mishandle HEAD, OPTIONS or an answer without content', () => {
  const runAgainst = useMutatedMock();

  it.each(BROKEN)(
    'exits 1 and names $check for $name',
    async ({ check, mutation, contract }) => {
      const run = await runAgainst(mutation(), ['--case', 'http/*'], contract);
      expect(namedCheckIds(await run.report()), run.out.slice(-800)).toContain(check);
      expect(run.code).toBe(1);
    },
    60_000,
  );

  it('shows the HEAD in the report with a curl line that reproduces it without the key', async () => {
    const run = await runAgainst(BROKEN[0]?.mutation() as Mutation, ['--case', 'http/listPets/*']);
    const finding = (await run.report()).scenarios
      .flatMap((s) => s.findings)
      .find((f) => f.checkId === 'no-content-after-headers');
    expect(finding?.request.method).toBe('HEAD');
    expect(finding?.title).toMatch(/^23 bytes followed the header block of the 200 to HEAD/);
    expect(finding?.curl).toMatch(/^curl -sS -i -I '.*\/v1\/pets' .*-H "Authorization: Bearer \$PETSTORE_API_KEY"/);
    expect(run.out).not.toContain('petstore-dev-key');
  });

  it('redacts the key from the stray bytes it quotes, when a HEAD echoes the request after its header block', async () => {
    const run = await runAgainst(
      {
        response: (res, req) =>
          isHead(req) ? { ...res, body: `echo: ${req.headers.authorization}`, wire: { broken: 'stray-bytes' } } : res,
      },
      ['--case', 'http/listPets/*', '--reporter', 'json,markdown,html'],
    );
    const finding = (await run.report()).scenarios
      .flatMap((s) => s.findings)
      .find((f) => f.checkId === 'no-content-after-headers');
    expect(finding?.received).toMatch(/^HTTP 200, then 29 bytes: "echo: Bearer \*\*\*"$/);
    for (const file of ['report.json', 'summary.md', 'report.html']) {
      expect(await readFile(join(run.reportDir, file), 'utf8')).not.toContain(DEV_API_KEY);
    }
    expect(run.out).not.toContain(DEV_API_KEY);
  });

  it.each([
    ['openapi.yaml', undefined],
    ['the evolved contract', EVOLVED],
  ])(
    'passes a correct server on %s that serves neither HEAD nor OPTIONS (405 with Allow), noting that HEAD is not served',
    async (_, contract) => {
      const run = await runAgainst(
        {
          request: (req) =>
            isHead(req) || isOptions(req)
              ? { ...errorJson(405), headers: { 'content-type': 'application/json', allow: 'GET, POST' } }
              : req,
        },
        [],
        contract,
      );
      const report = await run.report();
      expect(report.scenarios.flatMap((s) => s.findings)).toEqual([]);
      expect(run.code).toBe(0);
      const notes = report.scenarios.flatMap((s) => s.observations).map((o) => o.note);
      expect(notes).toContainEqual(
        expect.stringMatching(/not verified \(head-like-get\): the target does not serve HEAD here \(405\)/),
      );
      // The 204s were looked past: nothing said they could not be.
      expect(report.scenarios.find((s) => s.id === 'http/deletePet/no-content')?.observations ?? []).toEqual([]);
    },
    120_000,
  );

  it('sends a PUT and a PATCH that document no 204 raw as well: answered 200 by a correct server, they pass saying nothing', async () => {
    const run = await runAgainst({}, ['--case', 'http/*'], LIBRARY);
    expect(run.code).toBe(0);
    const report = await run.report();
    for (const id of ['http/replaceAuthor/no-content', 'http/patchBook/no-content']) {
      const probe = report.scenarios.find((s) => s.id === id);
      expect(probe?.outcome).toBe('passed');
      expect(probe?.exchanges.at(-1)?.status).toBe(200);
      expect(probe?.observations).toEqual([]);
    }
  });

  it('counts HEAD and OPTIONS toward no documented status of the operation', async () => {
    const run = await runAgainst({ request: (req) => (isOptions(req) && pathOf(req) === '/v1/pets' ? errorJson(404) : req) }, [
      '--case',
      'http/listPets/*',
    ]);
    const report = await run.report();
    expect(run.code).toBe(0);
    const listPets = report.coverage.filter((row) => row.operationId === 'listPets');
    expect(listPets.some((row) => row.status === '404' || row.status === '204')).toBe(false);
    const gets = report.scenarios.flatMap((s) => s.exchanges).filter((e) => e.operationId === 'listPets');
    expect(gets.map((e) => e.method).sort()).toEqual(['GET', 'GET', 'HEAD', 'HEAD', 'OPTIONS']);
    expect(listPets.find((row) => row.status === '200')?.exercised).toBe(2);
    // The HEAD without a key got its 401, which counts toward no row either.
    expect(listPets.find((row) => row.status === '401')?.exercised ?? 0).toBe(0);
  });
});
