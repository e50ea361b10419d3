import { mkdtemp, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { Agent } from 'undici';
import { afterAll, describe, expect, it } from 'vitest';
import { collectGarbage } from '../../src/conformance/http/collect-garbage.js';
import { createGate } from '../../src/conformance/http/create-gate.js';
import { createHttpClient } from '../../src/conformance/http/create-http-client.js';
import { type ConformanceOptions, runConformance } from '../../src/conformance/run-conformance.js';
import { isTransportError, sendOnce } from '../../src/conformance/http/send-once.js';
import { libraryRun } from '../support/library-run.js';

const servers: Server[] = [];
afterAll(async () => {
  for (const server of servers) server.closeAllConnections();
  await Promise.all(servers.map((s) => new Promise((resolve) => s.close(resolve))));
});

async function answering(body: string | Buffer, headers: Record<string, string> = {}): Promise<string> {
  const server = createServer((_, res) => {
    res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body), ...headers }).end(body);
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as { port: number }).port}/v1/pets`;
}

describe('large answers', () => {
  it('refuses to parse a body of more values than its size cap allows (its tree would not fit), as too large', async () => {
    const url = await answering(`[${'{},'.repeat(700_000)}{}]`);
    const client = createHttpClient({
      token: 'k',
      timeoutMs: 20_000,
      connections: 1,
      rateLimit: undefined,
      maxResponseBytes: 3 * 1024 * 1024,
    });
    try {
      const exchange = await client.send({ method: 'GET', url, headers: {}, body: undefined });
      expect(exchange.response).toBeUndefined();
      expect(exchange.error?.kind).toBe('too-large');
      expect(exchange.error?.message).toContain('JSON values');
    } finally {
      await client.close();
    }
  });

  it('does not build a body nested deeper than it reads: the body is not JSON to the checks, and says why', async () => {
    const url = await answering(`${'['.repeat(500_000)}${']'.repeat(500_000)}`);
    const client = createHttpClient({ token: 'k', timeoutMs: 20_000, connections: 1, rateLimit: undefined });
    try {
      const exchange = await client.send({ method: 'GET', url, headers: {}, body: undefined });
      expect(exchange.response?.json).toBeUndefined();
      expect(exchange.response?.jsonError).toMatch(/^the body nests deeper than the runner reads \(.* 256 deep\)$/);
    } finally {
      await client.close();
    }
  });

  it('parses a large list within the cap, and reads a large answer only once the gate lets it in, its deadline paused meanwhile', async () => {
    const url = await answering(`[${'{"id":1,"name":"Rex"},'.repeat(60_000)}{"id":2,"name":"Max"}]`);
    const enter = createGate(1);
    const leave = await enter();
    const dispatcher = new Agent();
    let settled = false;
    const answer = sendOnce(
      dispatcher,
      { method: 'GET', url, headers: {}, body: undefined },
      {
        timeoutMs: 300,
        maxResponseBytes: 10 * 1024 * 1024,
        large: { bytes: 64 * 1024, enter },
      },
    ).then((outcome) => {
      settled = true;
      return outcome;
    });
    try {
      await new Promise((resolve) => setTimeout(resolve, 700));
      expect(settled).toBe(false);
      leave();
      const outcome = await answer;
      expect(isTransportError(outcome)).toBe(false);
      expect(isTransportError(outcome) ? 0 : outcome.text.length).toBeGreaterThan(1024 * 1024);
    } finally {
      await dispatcher.close();
    }
  });

  it('decodes a gzip body that grows past the gate size only once the gate lets it in, and a small one at once', async () => {
    const bomb = await answering(gzipSync(`[${' '.repeat(4 * 1024 * 1024)}]`), { 'content-encoding': 'gzip' });
    const small = await answering(gzipSync('[{"id":1}]'), { 'content-encoding': 'gzip' });
    const enter = createGate(1);
    const leave = await enter();
    const dispatcher = new Agent();
    const limits = { timeoutMs: 300, maxResponseBytes: 10 * 1024 * 1024, large: { bytes: 64 * 1024, enter } };
    const send = (url: string) => sendOnce(dispatcher, { method: 'GET', url, headers: {}, body: undefined }, limits);
    let settled = false;
    const answer = send(bomb).then((outcome) => {
      settled = true;
      return outcome;
    });
    try {
      const quick = await send(small);
      expect(isTransportError(quick) ? quick : quick.text).toBe('[{"id":1}]');
      await new Promise((resolve) => setTimeout(resolve, 700));
      expect(settled).toBe(false);
      leave();
      const outcome = await answer;
      expect(isTransportError(outcome) ? outcome : outcome.text.length).toBe(4 * 1024 * 1024 + 2);
    } finally {
      await dispatcher.close();
    }
  });
});

// The scenario file alone, one case at a time, against a server of the test's.
function runFile(server: Server, file: string, onExchange: ConformanceOptions['onExchange']) {
  const target = `http://127.0.0.1:${(server.address() as { port: number }).port}/v1`;
  return runConformance(libraryRun({ target, token: 'k', scenarios: file, generate: [], readOnly: true, onExchange }));
}

describe('what a case holds between its steps', () => {
  it('drops a judged answer before its next step is sent, keeping of a capture only what templates read', async () => {
    const pets = JSON.stringify(
      Array.from({ length: 30_000 }, (_, i) => ({ id: i + 1, name: `Pet number ${i + 1}`, status: 'available' })),
    );
    const held: WeakRef<object>[] = [];
    let heldWhileSecondStepWaits: number | undefined;
    const server = createServer((req, res) => {
      if (req.headers['x-second'] === 'yes') {
        // By now the first step's answer (2 MiB of text and its tree) has been judged: nothing may hold it.
        collectGarbage();
        heldWhileSecondStepWaits = held.filter((ref) => ref.deref() !== undefined).length;
        res.writeHead(200, { 'content-type': 'application/json' }).end('{"id":1,"name":"Rex","status":"available"}');
        return;
      }
      if (req.url?.startsWith('/v1/pets/'))
        res.writeHead(200, { 'content-type': 'application/json' }).end('{"id":1,"name":"Rex"}');
      else res.writeHead(200, { 'content-type': 'application/json' }).end(pets);
    });
    servers.push(server);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const dir = await mkdtemp(join(tmpdir(), 'held-answers-'));
    const file = join(dir, 'held.yaml');
    await writeFile(
      file,
      [
        'scenarios:',
        '  - name: counts a large list, then gets a pet',
        '    description: Given a large list, when a case counts it, then it gets a pet with that count as id',
        '    steps:',
        '      - operation: listPets',
        '        query: { limit: 100 }',
        '        capture: before',
        '      - operation: getPet',
        "        params: { petId: '{{before.body.length}}' }",
        "        headers: { x-second: 'yes' }",
        '',
      ].join('\n'),
    );
    await runFile(server, file, (input, scenario) => {
      if (scenario.name.startsWith('counts') && input.exchange.response) {
        input.exchange.response.json; // parsed, as checks do
        held.push(new WeakRef(input.exchange.response));
      }
    });
    expect(held).toHaveLength(2);
    expect(heldWhileSecondStepWaits).toBe(0);
  });

  // Each step answers a body of `size` characters; the server notes how many exchanges the run had judged by the
  // time each request came in.
  async function judgedBeforeEachStep(size: number): Promise<number[]> {
    let judged = 0;
    const seen: number[] = [];
    const server = createServer((req, res) => {
      seen.push(judged);
      req.resume();
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify([{ id: 1, name: 'x'.repeat(size) }]));
    });
    servers.push(server);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const file = join(await mkdtemp(join(tmpdir(), 'held-judged-')), 'three.yaml');
    const step = ['      - operation: listPets', '        query: { limit: 1 }'];
    const description = 'Given a list, when it is asked for three times, then each answer is judged';
    await writeFile(
      file,
      [
        'scenarios:',
        '  - name: lists three times',
        `    description: ${description}`,
        '    steps:',
        ...step,
        ...step,
        ...step,
        '',
      ].join('\n'),
    );
    await runFile(server, file, (_, scenario) => {
      if (scenario.name === 'lists three times') judged++;
    });
    expect(judged).toBe(3);
    return seen.slice(-3);
  }

  it('sends the next step as soon as a small answer is in, and judges the case once its last step is answered', async () => {
    expect(await judgedBeforeEachStep(100)).toEqual([0, 0, 0]);
  });

  it('judges, and lets go of, answers past 256 KiB before the next step is sent', async () => {
    expect(await judgedBeforeEachStep(300 * 1024)).toEqual([0, 1, 2]);
  });
});
