import { readFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { packageRoot } from '../../src/contract/package-root.js';
import type { RunResult } from '../../src/conformance/run-result.js';
import { DEV_API_KEY } from '../../src/mock/mock-options.js';
import { startMutatingProxy } from '../support/mutating-proxy.js';
import { startMock } from '../support/start-mock.js';
import { runCli } from './run-cli.js';

const evolved = join(packageRoot(), 'test', 'contracts', 'evolved-petstore', 'openapi.yaml');
const createPetFile = join(packageRoot(), 'conformance', 'create-pet.yaml');
const args = (target: string) => ['--target', target, '--contract', evolved, '--scenarios', createPetFile, '--no-generate'];
const records = (count = 0) => `${count} record${count === 1 ? '' : 's'}`;
const deletableCount = (report: RunResult) => (report.created ?? []).filter((c) => c.deletable).reduce((n, c) => n + c.count, 0);

/** A tiny in-memory pet store with deletePet (the evolved contract's pets), and nothing else. */
async function petStore(): Promise<{ url: string; pets: Map<number, object>; close: () => void }> {
  const pets = new Map<number, object>();
  let next = 1;
  const server = createServer(async (req, res) => {
    let text = '';
    for await (const chunk of req) text += chunk;
    const send = (status: number, body?: unknown) =>
      res
        .writeHead(status, body === undefined ? {} : { 'content-type': 'application/json' })
        .end(body === undefined ? undefined : JSON.stringify(body));
    if (req.headers.authorization !== `Bearer ${DEV_API_KEY}`) return send(401, { code: 401, message: 'no key' });
    const id = Number(/^\/v1\/pets\/(\d+)$/.exec(req.url ?? '')?.[1] ?? Number.NaN);
    if (req.method === 'POST' && req.url === '/v1/pets') {
      const pet = { status: 'available', ...JSON.parse(text), id: next++ };
      pets.set(pet.id, pet);
      return send(201, pet);
    }
    if (req.method === 'GET' && req.url?.split('?')[0] === '/v1/pets') return send(200, [...pets.values()].slice(0, 20));
    if (req.method === 'GET' && pets.has(id)) return send(200, pets.get(id));
    if (req.method === 'DELETE' && pets.delete(id)) return send(204);
    return send(404, { code: 404, message: 'not found' });
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`, pets, close: () => server.close() };
}

describe('what a run leaves behind', () => {
  it('counts what it created, and --cleanup (the default) deletes it where the contract has a delete', async () => {
    const store = await petStore();
    try {
      const run = await runCli([...args(store.url), '--reporter', 'console,json,markdown,html']);
      const report = await run.report();
      const pets = report.created?.find((c) => c.collection === 'pets');
      expect(pets?.count).toBeGreaterThan(0);
      expect(pets?.deletable).toBe(true);
      expect(report.cleanup).toEqual({ deleted: pets?.count, gone: 0, failed: 0 });
      expect(store.pets.size).toBe(0);
      expect(pets?.path).toBe('/pets');
      const line = `Created ${records(pets?.count)} in /pets; cleanup deleted ${records(pets?.count)}, none failed`;
      expect(run.out).toContain(`\n${line}\n`);
      expect(await readFile(join(run.reportDir, 'summary.md'), 'utf8')).toContain(`\n${line}\n`);
      expect(await readFile(join(run.reportDir, 'report.html'), 'utf8')).toContain(`<p id="created">${line}</p>`);
    } finally {
      store.close();
    }
  });

  it('--no-cleanup leaves them, and says so', async () => {
    const store = await petStore();
    try {
      const run = await runCli([...args(store.url), '--reporter', 'console,json', '--no-cleanup']);
      const report = await run.report();
      const count = report.created?.find((c) => c.collection === 'pets')?.count ?? 0;
      expect(count).toBeGreaterThan(0);
      expect(report.cleanup).toBeUndefined();
      expect(store.pets.size).toBe(count);
      expect(run.out).toContain(`\nCreated ${records(count)} in /pets; --no-cleanup: left on the target\n`);
    } finally {
      store.close();
    }
  });

  it('--merge adds up what the shards created and deleted', async () => {
    const store = await petStore();
    try {
      const shards = await Promise.all(
        ['1/2', '2/2'].map((shard) => runCli([...args(store.url), '--reporter', 'json', '--shard', shard])),
      );
      const reports = await Promise.all(shards.map((s) => s.report()));
      const merged = await runCli(['--merge', ...shards.flatMap((s) => ['--merge', join(s.reportDir, 'report.json')]).slice(1)]);
      const report = await merged.report();
      const pets = (r: RunResult) => r.created?.find((c) => c.collection === 'pets')?.count ?? 0;
      expect(pets(report)).toBe(reports.reduce((n, r) => n + pets(r), 0));
      expect(pets(report)).toBeGreaterThan(0);
      expect(report.cleanup?.deleted).toBe(reports.reduce((n, r) => n + (r.cleanup?.deleted ?? 0), 0));
    } finally {
      store.close();
    }
  });

  it('counts the deletes a target refuses as not deleted', async () => {
    const store = await petStore();
    const proxy = await startMutatingProxy(store.url, {
      request: (req) =>
        req.method === 'DELETE'
          ? { status: 500, headers: { 'content-type': 'application/json' }, body: '{"code":500,"message":"no"}' }
          : req,
    });
    try {
      const run = await runCli([...args(proxy.url), '--reporter', 'json']);
      const report = await run.report();
      const count = report.created?.find((c) => c.collection === 'pets')?.count ?? 0;
      expect(count).toBeGreaterThan(0);
      expect(report.cleanup).toEqual({ deleted: 0, gone: 0, failed: deletableCount(report) });
      expect(store.pets.size).toBe(count);
    } finally {
      store.close();
      await proxy.close();
    }
  });

  it('without a delete in the contract, says the created resources stay', async () => {
    const mock = await startMock();
    const run = await runCli(['--target', mock.url, '--generate', 'ids', '--reporter', 'console,json']);
    const report = await run.report();
    const count = report.created?.find((c) => c.collection === 'pets')?.count ?? 0;
    expect(count).toBeGreaterThan(0);
    expect(report.cleanup).toBeUndefined();
    expect(run.out).toMatch(
      new RegExp(`\\nCreated .*\\b${records(count)} in /pets; no delete in the contract for .*/pets: left on the target\\n`),
    );
  });
});
