import { createServer, type Server } from 'node:http';
import { request } from 'undici';
import { afterAll, describe, expect, it } from 'vitest';
import { DEV_API_KEY } from '../../src/mock/mock-options.js';
import { startMock } from '../support/start-mock.js';
import { runCli } from './run-cli.js';

const readOnly = ['--read-only', '--generate', 'ids'];
const LISTED = 'ids/getPet/listed-id';

describe('--read-only reads an item by an id taken from a list', async () => {
  const mock = await startMock();
  const servers: Server[] = [];
  afterAll(() => {
    for (const server of servers) server.close();
  });
  // The mock's GETs, with one answer changed: a target broken (or empty) in one way.
  const front = async (change: (path: string, status: number, body: string) => { status: number; body: string } | undefined) => {
    const server = createServer(async (req, res) => {
      const answer = await request(`${new URL(mock.url).origin}${req.url}`, {
        headers: { authorization: req.headers.authorization ?? '' },
      });
      const body = await answer.body.text();
      const changed = change(req.url ?? '', answer.statusCode, body) ?? { status: answer.statusCode, body };
      res.writeHead(changed.status, { 'content-type': 'application/json' }).end(changed.body);
    });
    servers.push(server);
    await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
    return `http://127.0.0.1:${(server.address() as { port: number }).port}/v1`;
  };

  it('skips the read, saying why, when the list is empty', async () => {
    const target = await front((path) => (/\/pets(\?|$)/.test(path) ? { status: 200, body: '[]' } : undefined));
    const run = await runCli(['--target', target, ...readOnly, '--case', LISTED, '--reporter', 'json']);
    expect(run.code).toBe(0);
    const listed = (await run.report()).scenarios.find((s) => s.id === LISTED);
    expect(listed?.outcome).toBe('skipped');
    expect(listed?.skipReason).toBe('listPets listed no pets: no id to read');
  });

  it('GETs the first listed item and expects its documented 200, sending no create', async () => {
    const created = await request(`${mock.url}/pets`, {
      method: 'POST',
      headers: { authorization: `Bearer ${DEV_API_KEY}`, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'Listed', categoryId: 4 }),
    });
    expect(created.statusCode).toBe(201);
    const run = await runCli(['--target', mock.url, ...readOnly, '--reporter', 'json']);
    expect(run.code).toBe(0);
    const report = await run.report();
    const listed = report.scenarios.find((s) => s.id === LISTED);
    expect(listed?.outcome).toBe('passed');
    expect(listed?.exchanges.map((e) => `${e.method} ${e.operationId} ${e.status}`)).toEqual([
      'GET listPets 200',
      'GET getPet 200',
    ]);
    expect(report.coverage.find((r) => r.operationId === 'getPet' && r.status === '200')?.passed).toBeGreaterThan(0);
    expect(report.scenarios.flatMap((s) => s.exchanges).filter((e) => e.method !== 'GET')).toEqual([]);
  });

  it('fails when the listed item cannot be read', async () => {
    const notFound = JSON.stringify({ code: 404, message: 'not found' });
    const target = await front((path) => (/\/pets\/\d+$/.test(path) ? { status: 404, body: notFound } : undefined));
    const run = await runCli(['--target', target, ...readOnly, '--case', LISTED, '--reporter', 'json']);
    expect(run.code).toBe(1);
    const listed = (await run.report()).scenarios.find((s) => s.id === LISTED);
    expect(listed?.outcome).toBe('failed');
    expect(listed?.findings[0]?.title).toBe('expected status 200, got 404');
  });
});

describe('--read-only sends HEAD and OPTIONS to an item path, with an id taken from a list', () => {
  const CASE = 'http/getPet/head-options';

  it('the case runs and passes on the mock, and the mock receives no write', async () => {
    const received: string[] = [];
    const mock = await startMock({ onExchange: (e) => received.push(`${e.method} ${new URL(e.url, 'http://x').pathname}`) });
    const run = await runCli(['--target', mock.url, '--read-only', '--generate', 'http', '--reporter', 'json']);
    expect(run.code).toBe(0);
    const item = (await run.report()).scenarios.find((s) => s.id === CASE);
    expect(item?.outcome).toBe('passed');
    expect(item?.exchanges.map((e) => `${e.method} ${e.operationId} ${e.status}`)).toEqual([
      'GET listPets 200',
      'GET getPet 200',
      'HEAD getPet 200',
      expect.stringMatching(/^OPTIONS getPet \d{3}$/),
    ]);
    expect(received).toContain(`HEAD ${new URL(item?.exchanges[2]?.url as string).pathname}`);
    expect(received.filter((line) => !/^(GET|HEAD|OPTIONS) /.test(line))).toEqual([]);
  });

  it('without --read-only the same case still reads a record of its own', async () => {
    const run = await runCli(['--target', (await startMock()).url, '--case', CASE, '--reporter', 'json']);
    expect(run.code).toBe(0);
    const item = (await run.report()).scenarios.find((s) => s.id === CASE);
    expect(item?.exchanges.map((e) => `${e.method} ${e.operationId}`)).toEqual([
      'POST createPet',
      'GET getPet',
      'HEAD getPet',
      'OPTIONS getPet',
    ]);
  });
});
