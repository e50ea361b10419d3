import { afterEach, describe, expect, it } from 'vitest';
import { createMockServer, type MockServer } from '../../src/mock/create-mock-server.js';
import { DEV_API_KEY } from '../../src/mock/mock-options.js';
import type { StyleServer } from '../support/generated-style-servers.js';
import { type DeviceBreakage, startDeviceServer } from '../support/device-registry-server.js';
import { type IssueBreakage, startIssueServer } from '../support/issue-tracker-server.js';
import { startTasksServer, type TaskBreakage } from '../support/workspace-tasks-server.js';
import {
  type InventoryBreakage,
  type SubscriptionBreakage,
  startInventoryServer,
  startStripeLikeServer,
  startSubscriptionsServer,
} from '../support/hand-written-servers.js';
import { blockingCheckIds, namedCheckIds, runCli } from './run-cli.js';

// Contracts written by hand in styles the generated ones lack, each served by a correct server written apart from
// the mock that chooses where its contract is silent: the runner passes it, fails it broken in one way, and the
// mock of the contract passes the same run.
const SUBSCRIPTIONS = 'test/contracts/webhook-subscriptions/openapi.yaml';
const INVENTORY = 'test/contracts/store-inventory/openapi.yaml';
const STRIPE = 'test/contracts/stripe-customers/openapi.yaml';
const ISSUES = 'test/contracts/repo-issues/openapi.yaml';
const DEVICES = 'test/contracts/device-labels/openapi.yaml';
const TASKS = 'test/contracts/workspace-tasks/openapi.yaml';

let server: StyleServer | MockServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const runAgainst = (url: string, contract: string) =>
  runCli(['--target', url, '--contract', contract, '--seed', '1', '-r', 'console,json']);
const mockPasses = async (contract: string) => {
  const mock = await createMockServer({ contract, port: 0, host: '127.0.0.1', log: () => {}, apiKeys: [DEV_API_KEY] });
  server = mock;
  const run = await runAgainst(mock.url, contract);
  expect(blockingCheckIds(await run.report()), run.out).toEqual([]);
  expect(run.code, run.out).toBe(0);
  return { mock, run };
};

describe('an OpenAPI 3.1 contract (type arrays, const, $defs, prefixItems, a closed input, webhooks)', () => {
  const subscriptions = async (breakage?: SubscriptionBreakage) => {
    server = await startSubscriptionsServer(DEV_API_KEY, breakage);
    return runAgainst(server.url, SUBSCRIPTIONS);
  };

  it('passes a server whose create answers 201 with a Location and no body and whose delete answers 204 (exit 0)', async () => {
    const run = await subscriptions();
    const report = await run.report();
    expect(blockingCheckIds(report), run.out).toEqual([]);
    expect(run.code, run.out).toBe(0);
    expect(report.scenarios.find((s) => s.id === 'effects/createSubscription/created-readable')?.outcome).toBe('passed');
  });

  it('fails that server when its PUT keeps the fields the replacement leaves out, naming put-replaces', async () => {
    const run = await subscriptions('put-merges');
    expect(run.code, run.out).toBe(1);
    expect(namedCheckIds(await run.report())).toContain('put-replaces');
  });

  it('fails that server when its Location names another record, naming created-readable', async () => {
    const run = await subscriptions('location-elsewhere');
    expect(run.code, run.out).toBe(1);
    expect(namedCheckIds(await run.report())).toContain('created-readable');
  });

  it('is served by the mock, which passes the run', async () => {
    await mockPasses(SUBSCRIPTIONS);
  });
});

describe('items under a store keyed by a SKU the client names, changed by merge patch or JSON Patch', () => {
  const inventory = async (breakage?: InventoryBreakage) => {
    server = await startInventoryServer(DEV_API_KEY, breakage);
    return runAgainst(server.url, INVENTORY);
  };

  it('passes a server that lists items by SKU rather than as created (exit 0)', async () => {
    const run = await inventory();
    expect(blockingCheckIds(await run.report()), run.out).toEqual([]);
    expect(run.code, run.out).toBe(0);
  });

  it('fails that server when an item is found under any store, naming parent-scoped', async () => {
    const run = await inventory('item-of-any-store');
    expect(run.code, run.out).toBe(1);
    expect(namedCheckIds(await run.report()), run.out).toContain('parent-scoped');
  });

  it('fails that server when a merge patch null leaves the field, naming patch-null-removes', async () => {
    const run = await inventory('merge-null-ignored');
    expect(run.code, run.out).toBe(1);
    expect(namedCheckIds(await run.report()), run.out).toContain('patch-null-removes');
  });

  it('is served by the mock, which passes the run and answers a JSON Patch it does not apply without a 5xx', async () => {
    const { mock } = await mockPasses(INVENTORY);
    const headers = { 'x-api-key': DEV_API_KEY, 'content-type': 'application/json' };
    const store = (await (await fetch(`${mock.url}/stores`, { method: 'POST', headers, body: '{"name":"North"}' })).json()) as {
      id: number;
    };
    const item = { sku: 'ABC-0001', name: 'Milk', category: 'dairy', quantity: 3 };
    const added = await fetch(`${mock.url}/stores/${store.id}/items`, { method: 'POST', headers, body: JSON.stringify(item) });
    expect(added.status).toBe(201);
    const patched = await fetch(`${mock.url}/stores/${store.id}/items/ABC-0001`, {
      method: 'PATCH',
      headers: { ...headers, 'content-type': 'application/json-patch+json' },
      body: '[{"op":"replace","path":"/quantity","value":4}]',
    });
    expect(patched.status).toBeLessThan(500);
  });
});

describe('a Stripe-like contract (form writes, prefixed ids, nullable beside anyOf with no type)', () => {
  it('loads, and passes a server that answers JSON with a charset and ids with their prefix (exit 0)', async () => {
    server = await startStripeLikeServer(DEV_API_KEY);
    const run = await runAgainst(server.url, STRIPE);
    expect(blockingCheckIds(await run.report()), run.out).toEqual([]);
    expect(run.code, run.out).toBe(0);
  });

  it('is served by the mock, which passes the run', async () => {
    await mockPasses(STRIPE);
  });
});

describe('issues keyed by an owner, a repository and a number no resource of the contract names', () => {
  const issues = async (breakage?: IssueBreakage) => {
    server = await startIssueServer(DEV_API_KEY, breakage);
    return runAgainst(server.url, ISSUES);
  };

  it('passes a server that numbers issues per repository and answers JSON with a charset (exit 0)', async () => {
    const run = await issues();
    expect(blockingCheckIds(await run.report()), run.out).toEqual([]);
    expect(run.code, run.out).toBe(0);
    expect(run.out).toMatch(/cleanup deleted \d+ records/);
  });

  it('fails that server when its PUT answers 204 and changes nothing, naming update-took-effect', async () => {
    const run = await issues('put-ignored');
    expect(run.code, run.out).toBe(1);
    expect(namedCheckIds(await run.report()), run.out).toContain('update-took-effect');
  });

  it('fails that server when it drops the assignees it was sent, naming created-readable', async () => {
    const run = await issues('assignees-dropped');
    expect(run.code, run.out).toBe(1);
    expect(namedCheckIds(await run.report()), run.out).toContain('created-readable');
  });

  it('fails that server when a deleted issue stays listed, oldest first, naming deleted-is-gone', async () => {
    const run = await issues('delete-keeps-listed');
    expect(run.code, run.out).toBe(1);
    expect(namedCheckIds(await run.report()), run.out).toContain('deleted-is-gone');
  });

  it('is served by the mock, which passes the run and cleans up what it created under owners of its own', async () => {
    const { run } = await mockPasses(ISSUES);
    expect(run.out).toMatch(/cleanup deleted [1-9]\d* records, \d+ already gone, none failed/);
  });
});

describe('devices with a map of labels changed key by key by a merge patch, integer enums and vendor extensions', () => {
  const devices = async (breakage?: DeviceBreakage) => {
    server = await startDeviceServer(DEV_API_KEY, breakage);
    return runAgainst(server.url, DEVICES);
  };

  it('passes a server that answers an empty map for no labels and leaves power_class out (exit 0)', async () => {
    const run = await devices();
    const report = await run.report();
    expect(blockingCheckIds(report), run.out).toEqual([]);
    expect(run.code, run.out).toBe(0);
    expect(report.scenarios.find((s) => s.id === 'effects/updateDevice/labels/merges-keys')?.outcome).toBe('passed');
  });

  it('fails that server when a merge patch replaces the whole map, naming update-took-effect', async () => {
    const run = await devices('labels-replaced');
    expect(run.code, run.out).toBe(1);
    expect(namedCheckIds(await run.report()), run.out).toContain('update-took-effect');
  });

  it('fails that server when a label sent null stays, naming patch-null-removes', async () => {
    const run = await devices('label-null-kept');
    expect(run.code, run.out).toBe(1);
    expect(namedCheckIds(await run.report()), run.out).toContain('patch-null-removes');
  });

  it('is served by the mock, which passes the run', async () => {
    await mockPasses(DEVICES);
  });
});

describe('tasks under projects under a workspace no resource names (OpenAPI 3.1, a partial update answered 204)', () => {
  const tasks = async (breakage?: TaskBreakage) => {
    server = await startTasksServer(DEV_API_KEY, breakage);
    return runAgainst(server.url, TASKS);
  };

  it('passes a server that answers every nullable field, newest first, under the workspace of the example (exit 0)', async () => {
    const run = await tasks();
    const report = await run.report();
    expect(blockingCheckIds(report), run.out).toEqual([]);
    expect(run.code, run.out).toBe(0);
    expect(report.scenarios.some((s) => s.exchanges.some((e) => e.url.includes('/workspaces/acme-eng/projects/')))).toBe(true);
  });

  it('fails that server when a task is found under any project, naming parent-scoped', async () => {
    const run = await tasks('task-in-any-project');
    expect(run.code, run.out).toBe(1);
    expect(namedCheckIds(await run.report()), run.out).toContain('parent-scoped');
  });

  it('fails that server when a project is found under any workspace, naming parent-scoped', async () => {
    const run = await tasks('project-in-any-workspace');
    expect(run.code, run.out).toBe(1);
    expect(namedCheckIds(await run.report()), run.out).toContain('parent-scoped');
    expect(run.out).toContain('getProject does not reach a record under another workspace');
  });

  it('fails that server when a field sent null keeps its value, naming patch-null-removes', async () => {
    const run = await tasks('null-ignored');
    expect(run.code, run.out).toBe(1);
    expect(namedCheckIds(await run.report()), run.out).toContain('patch-null-removes');
  });

  it('is served by the mock, which passes the run', async () => {
    await mockPasses(TASKS);
  });
});
