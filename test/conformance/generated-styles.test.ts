import { afterEach, describe, expect, it } from 'vitest';
import { createMockServer, type MockServer } from '../../src/mock/create-mock-server.js';
import { DEV_API_KEY } from '../../src/mock/mock-options.js';
import {
  type DrfBreakage,
  type HalBreakage,
  type OrgBreakage,
  type StyleServer,
  startDrfServer,
  startHalServer,
  startOrgServer,
} from '../support/generated-style-servers.js';
import { blockingCheckIds, namedCheckIds, runCli } from './run-cli.js';

// Contracts as frameworks generate them, each served by a correct server written apart from the mock that answers
// as its framework does where the contract is silent: the runner passes it, fails it broken in one way, and the mock
// of the contract passes the same run and keeps what a client sends.
const DRF = 'test/contracts/drf-snippets/openapi.yaml';
const HAL = 'test/contracts/hal-orders/openapi.yaml';
const HAL_KEY = `admin:${DEV_API_KEY}`;
const ORGS = 'test/contracts/org-teams/openapi.yaml';
const EXPORTS = 'test/contracts/async-exports/openapi.yaml';

let server: StyleServer | MockServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const drf = async (breakage?: DrfBreakage) => {
  server = await startDrfServer(DEV_API_KEY, breakage);
  return runCli(['--target', server.url, '--contract', DRF, '--seed', '1', '-r', 'json'], {
    PETSTORE_API_KEY: `Token ${DEV_API_KEY}`,
  });
};
const hal = async (breakage?: HalBreakage) => {
  server = await startHalServer(HAL_KEY, breakage);
  return runCli(['--target', server.url, '--contract', HAL, '--seed', '1', '-r', 'console,json'], { PETSTORE_API_KEY: HAL_KEY });
};
const mockOf = async (contract: string, key: string) => {
  const mock = await createMockServer({ contract, port: 0, host: '127.0.0.1', log: () => {}, apiKeys: [key] });
  server = mock;
  return mock;
};

describe('a Django REST framework contract (drf-spectacular: trailing slashes, successes alone documented)', () => {
  it('passes a server that pages by a size of its own, and answers 404 and 400 it does not document (exit 0)', async () => {
    const run = await drf();
    const report = await run.report();
    expect(blockingCheckIds(report), run.out).toEqual([]);
    expect(run.code, run.out).toBe(0);
    const outcome = (id: string) => report.scenarios.find((s) => s.id === id)?.outcome;
    // A record on the second page of three, the blank code refused with 400, the missing id answered 404.
    expect(outcome('effects/snippets_create/created-readable')).toBe('passed');
    const blank = report.scenarios.find((s) => s.id === 'valid-bodies/snippets_create/code/empty-string');
    expect(blank?.observations).toContainEqual(expect.objectContaining({ status: 400 }));
    expect(blank?.skipReason).toMatch(/^snippets_create refused code set to an empty string: the contract sets no minLength/);
    expect(outcome('parameters/snippets_retrieve/id/zero')).toBe('passed');
    expect(outcome('parameters/snippets_list/page/zero')).toBe('passed');
  });

  it('fails that server when its delete leaves the record, naming deleted-is-gone', async () => {
    const run = await drf('delete-does-nothing');
    expect(run.code, run.out).toBe(1);
    expect(namedCheckIds(await run.report())).toContain('deleted-is-gone');
  });

  it('is served by the mock, which passes the run and keeps what a form sends', async () => {
    const mock = await mockOf(DRF, DEV_API_KEY);
    const run = await runCli(['--target', mock.url, '--contract', DRF, '--seed', '1', '-r', 'json']);
    expect(blockingCheckIds(await run.report()), run.out).toEqual([]);
    expect(run.code, run.out).toBe(0);
    const headers = { authorization: DEV_API_KEY, 'content-type': 'application/x-www-form-urlencoded' };
    const created = await fetch(`${mock.url}/api/snippets/`, { method: 'POST', headers, body: 'code=print(1)&linenos=true' });
    expect(created.status).toBe(201);
    const location = created.headers.get('location') as string;
    expect(location).toMatch(/\/api\/snippets\/\d+\/$/);
    await fetch(new URL(location, mock.url), { method: 'PATCH', headers, body: 'title=Hello' });
    const read = await fetch(new URL(location, mock.url), { headers: { authorization: DEV_API_KEY } });
    expect(await read.json()).toMatchObject({ code: 'print(1)', linenos: true, title: 'Hello' });
    const refused = await fetch(`${mock.url}/api/snippets/`, { method: 'POST', headers, body: 'code=x&linenos=maybe' });
    expect(refused.status).toBe(400);
  });
});

describe('a Spring Data REST contract (no operationIds, HAL answers under _embedded)', () => {
  it('passes a server strict about Accept that answers only application/hal+json (exit 0)', async () => {
    const run = await hal();
    expect(blockingCheckIds(await run.report()), run.out).toEqual([]);
    expect(run.code, run.out).toBe(0);
    expect(run.out).toContain('Resources inferred: /orders (id: create, list, get, replace, merge-patch, delete)');
    expect(run.out).toContain('[media-types/getOrders/accept]');
  });

  it('fails that server when it ignores the page size, naming list-within-query', async () => {
    const run = await hal('ignores-size');
    expect(run.code, run.out).toBe(1);
    expect(namedCheckIds(await run.report())).toContain('list-within-query');
  });

  it('is served by the mock in application/hal+json, which passes the run', async () => {
    const mock = await mockOf(HAL, HAL_KEY);
    const run = await runCli(['--target', mock.url, '--contract', HAL, '--seed', '1', '-r', 'json'], {
      PETSTORE_API_KEY: HAL_KEY,
    });
    expect(blockingCheckIds(await run.report()), run.out).toEqual([]);
    expect(run.code, run.out).toBe(0);
    const authorization = `Basic ${Buffer.from(HAL_KEY).toString('base64')}`;
    const body = JSON.stringify({ customer: 'Ada', total: 3 });
    for (const _ of [1, 2]) {
      const created = await fetch(`${mock.url}/orders`, {
        method: 'POST',
        headers: { authorization, 'content-type': 'application/json' },
        body,
      });
      expect(created.headers.get('content-type')).toBe('application/hal+json');
    }
    const list = await fetch(`${mock.url}/orders?size=1`, { headers: { authorization } });
    expect(list.headers.get('content-type')).toBe('application/hal+json');
    expect(((await list.json()) as { _embedded: { orders: unknown[] } })._embedded.orders).toHaveLength(1);
  });
});

describe('a GitHub-like contract (a client-named parent, two levels of nesting, an API key OR a bearer token)', () => {
  const orgs = async (breakage?: OrgBreakage) => {
    server = await startOrgServer(DEV_API_KEY, breakage);
    return runCli(['--target', server.url, '--contract', ORGS, '--seed', '1', '-r', 'console,json']);
  };

  it('passes a server that takes the key as a bearer token too and answers 400 to a body that is not JSON (exit 0)', async () => {
    const run = await orgs();
    const report = await run.report();
    expect(blockingCheckIds(report), run.out).toEqual([]);
    expect(run.code, run.out).toBe(0);
    expect(run.out).toContain('Resources inferred: /orgs (login: create, get, delete)');
    const ids = report.scenarios.map((s) => s.id);
    // The key as a bearer token is the other alternative's credential, not a wrong key: no case sends it as one.
    expect(ids).not.toContain('auth/createOrg/key-as-bearer/fresh-connection');
    expect(report.scenarios.find((s) => s.id === 'invalid-bodies/createOrg/json/not-json')?.outcome).toBe('passed');
    // Every case makes an org of its own login: effects reach the members two levels down.
    expect(report.scenarios.find((s) => s.id === 'effects/addMember/created-readable')?.outcome).toBe('passed');
  });

  it('fails that server when its list of members ignores the integer role filter, naming list-within-query', async () => {
    const run = await orgs('ignores-role-filter');
    expect(run.code, run.out).toBe(1);
    expect(namedCheckIds(await run.report())).toContain('list-within-query');
  });

  it('is served by the mock, which passes the run', async () => {
    const mock = await mockOf(ORGS, DEV_API_KEY);
    const run = await runCli(['--target', mock.url, '--contract', ORGS, '--seed', '1', '-r', 'json']);
    expect(blockingCheckIds(await run.report()), run.out).toEqual([]);
    expect(run.code, run.out).toBe(0);
  });
});

describe('an asynchronous export service (202 with a Location, a CSV download, an API key AND a tenant header)', () => {
  it('is served by the mock, which passes the run given the tenant header with -H: CSV is asked for and not read as JSON', async () => {
    const mock = await mockOf(EXPORTS, DEV_API_KEY);
    const run = await runCli([
      '--target',
      mock.url,
      '--contract',
      EXPORTS,
      '--seed',
      '1',
      '-r',
      'json',
      '-H',
      'X-Tenant-Id: acme',
    ]);
    const report = await run.report();
    expect(blockingCheckIds(report), run.out).toEqual([]);
    expect(run.code, run.out).toBe(0);
    // An export's status is the server's to move on (the create does not take it): no case filters by a value it set.
    expect(report.scenarios.map((s) => s.id)).not.toContain('pagination/listExports/status-queued');
  });

  it('stops (exit 2) naming the header the contract requires beside the key, where none is given', async () => {
    const mock = await mockOf(EXPORTS, 'another-key');
    const run = await runCli(['--target', mock.url, '--contract', EXPORTS, '--seed', '1', '-r', 'console']);
    expect(run.code, run.out).toBe(2);
    expect(run.err).toContain('the contract requires the X-Tenant-Id header with it: send it with -H');
  });
});
