import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runConformance } from '../../src/conformance/run-conformance.js';
import { DEV_API_KEY } from '../../src/mock/mock-options.js';
import { libraryRun } from '../support/library-run.js';
import { spawnBin } from '../support/spawn-bin.js';
import { runCli } from './run-cli.js';

describe('the runner on the wire', async () => {
  // Counts connections and requests in flight; every answer is a 200 [] after 10 ms.
  const sockets = new Set<unknown>();
  let inFlight = 0;
  let maxInFlight = 0;
  let requests = 0;
  const server: Server = createServer((req, res) => {
    sockets.add(req.socket);
    requests++;
    maxInFlight = Math.max(maxInFlight, ++inFlight);
    setTimeout(() => {
      inFlight--;
      res.writeHead(200, { 'content-type': 'application/json' }).end('[]');
    }, 10);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  afterAll(() => new Promise((resolve) => server.close(resolve)));
  const target = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;

  it('keeps at most --concurrency requests in flight, over as many kept-alive connections', async () => {
    const run = await runCli(['--target', target, '--concurrency', '2', '--reporter', 'json', '--no-generate']);
    expect(run.code).toBe(1);
    expect(requests).toBeGreaterThan(10);
    expect(maxInFlight).toBe(2);
    expect(sockets.size).toBeLessThanOrEqual(2);
  });

  it('gives each auth case a connection of its own, still with at most --concurrency requests in flight', async () => {
    sockets.clear();
    maxInFlight = 0;
    const run = await runCli(['--target', target, '--concurrency', '2', '--reporter', 'json', '--generate', 'auth']);
    const dedicated = (await run.report()).scenarios.filter((s) => s.kind === 'auth' && s.id.endsWith('-connection')).length;
    expect(dedicated).toBeGreaterThan(10);
    expect(maxInFlight).toBe(2);
    // The pool's two, plus one per auth case (closed when the case ends).
    expect(sockets.size).toBeGreaterThanOrEqual(dedicated);
    expect(sockets.size).toBeLessThanOrEqual(dedicated + 2);
  });
});

describe('parallel steps beside cases on connections of their own', () => {
  it('still have at most --concurrency requests in flight between them', async () => {
    let inFlight = 0;
    let mostInFlight = 0;
    let requests = 0;
    const server = createServer((req, res) => {
      requests++;
      mostInFlight = Math.max(mostInFlight, ++inFlight);
      req.resume();
      setTimeout(() => {
        inFlight--;
        res.writeHead(200, { 'content-type': 'application/json' }).end('[]');
      }, 10);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const empty = await mkdtemp(join(tmpdir(), 'no-scenarios-'));
      // The burst of 8 creates goes first (the longest case), while the other worker opens connections for auth cases.
      await runConformance(
        libraryRun({
          target: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`,
          token: DEV_API_KEY,
          scenarios: empty,
          generate: ['ids', 'auth'],
          concurrency: 2,
        }),
      );
      expect(requests).toBeGreaterThan(50);
      expect(mostInFlight).toBe(2);
    } finally {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    }
  });
});

describe('the filler a full page needs', async () => {
  // A store that lists oldest first and takes 2 ms to create; counts creates in flight.
  const pets: unknown[] = [];
  let creating = 0;
  let mostCreating = 0;
  let inFlight = 0;
  let mostInFlight = 0;
  const server: Server = createServer((req, res) => {
    mostInFlight = Math.max(mostInFlight, ++inFlight);
    const answer = (status: number, body: unknown) => {
      inFlight--;
      res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
    };
    if (req.method !== 'POST') {
      const limit = Number(new URL(req.url ?? '/', 'http://x').searchParams.get('limit') ?? 20);
      req.resume().on('end', () => answer(200, pets.slice(0, limit)));
      return;
    }
    mostCreating = Math.max(mostCreating, ++creating);
    let text = '';
    req.setEncoding('utf8').on('data', (chunk) => {
      text += chunk;
    });
    req.on('end', () =>
      setTimeout(() => {
        creating--;
        const pet = { ...JSON.parse(text), id: pets.length + 1 };
        pets.push(pet);
        answer(201, pet);
      }, 2),
    );
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  afterAll(() => new Promise((resolve) => server.close(resolve)));

  it('is created several at a time, with still at most --concurrency requests on the wire', async () => {
    const target = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
    const run = await runCli([
      '--target',
      target,
      '--concurrency',
      '3',
      '--case',
      'pagination/listPets/limit-maximum',
      '--reporter',
      'json',
    ]);
    expect(pets.length).toBeGreaterThan(100);
    expect(mostCreating).toBeGreaterThan(1);
    expect(mostInFlight).toBeLessThanOrEqual(3);
    const sent = (await run.report()).scenarios.find((s) => s.id === 'pagination/listPets/limit-maximum')?.exchanges;
    expect(sent?.filter((e) => e.operationId === 'createPet').length).toBeGreaterThan(100);
  });
});

describe('npm run conformance:mock', () => {
  it('starts a mock on a free port and passes the whole suite against it', async () => {
    const run = spawnBin('conformance-mock', ['--reporter', 'console']);
    const { code, stdout } = await run.exited;
    expect(stdout).toMatch(/Verdict: PASSED/);
    expect(stdout).toMatch(/http:\/\/127\.0\.0\.1:\d+\/v1/);
    expect(code).toBe(0);
  });
});
