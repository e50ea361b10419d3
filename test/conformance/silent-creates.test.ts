import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { createMockServer } from '../../src/mock/create-mock-server.js';
import { blockingCheckIds, runCli } from './run-cli.js';

// POST /tasks answers 201 and documents neither a body nor a Location: the contract lets a server name no id.
const CONTRACT = 'test/contracts/silent-creates/openapi.yaml';
const servers: { close: () => void }[] = [];
afterEach(() => {
  for (const server of servers.splice(0)) server.close();
});

/** Keeps tasks, and answers a create with 201 and nothing else, as the contract allows. */
async function taskServer(): Promise<string> {
  const tasks = new Map<number, { id: number; title: string }>();
  let next = 1;
  const server = createServer(async (req, res) => {
    let text = '';
    for await (const chunk of req) text += chunk;
    const send = (status: number, body?: unknown) => {
      if (body === undefined) return res.writeHead(status).end();
      res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
    };
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    const item = /^\/v1\/tasks\/(\d+)$/.exec(url.pathname);
    if (url.pathname === '/v1/tasks' && req.method === 'POST') {
      let body: { title?: unknown };
      try {
        body = JSON.parse(text);
      } catch {
        return send(400);
      }
      if (typeof body?.title !== 'string' || !req.headers['content-type']?.toLowerCase().startsWith('application/json'))
        return send(400);
      const id = next++;
      tasks.set(id, { id, title: body.title });
      return send(201);
    }
    if (url.pathname === '/v1/tasks' && req.method === 'GET') {
      const limit = Number(url.searchParams.get('limit') ?? 50);
      if (!Number.isInteger(limit) || limit < 1 || limit > 50) return send(400);
      return send(200, [...tasks.values()].reverse().slice(0, limit));
    }
    if (item && req.method === 'GET') {
      const task = tasks.get(Number(item[1]));
      return task ? send(200, task) : send(404);
    }
    if (item && req.method === 'DELETE') return tasks.delete(Number(item[1])) ? send(204) : send(404);
    return send(404);
  });
  servers.push(server);
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
}

describe('a create that documents neither a body nor a Location', () => {
  it('passes a server that names no id: the steps that need one are not run, with the reason, never failed', async () => {
    const run = await runCli(['--target', await taskServer(), '--contract', CONTRACT, '--seed', '1', '-r', 'console,json']);
    const report = await run.report();
    expect(blockingCheckIds(report), run.out).toEqual([]);
    expect(run.code, run.out).toBe(0);
    const reasons = report.scenarios.map((s) => s.skipReason ?? '');
    expect(reasons.some((reason) => reason.includes('documents neither a body nor a Location'))).toBe(true);
  });

  it('runs those steps against the mock, which names the record by its Location', async () => {
    const mock = await createMockServer({ contract: CONTRACT, port: 0, host: '127.0.0.1', log: () => {} });
    servers.push({ close: () => void mock.close() });
    const run = await runCli(['--target', mock.url, '--contract', CONTRACT, '--seed', '1', '-r', 'json']);
    expect(run.code, run.out).toBe(0);
    const report = await run.report();
    expect(report.scenarios.some((s) => s.skipReason?.includes('documents neither a body nor a Location'))).toBe(false);
  });
});
