import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { createMockServer } from '../../src/mock/create-mock-server.js';
import { DEV_API_KEY } from '../../src/mock/mock-options.js';
import { blockingCheckIds, runCli } from './run-cli.js';

// test/contracts/uploads: POST /photos takes multipart/form-data with a required file and rank (integer ≥ 1).
const CONTRACT = 'test/contracts/uploads/openapi.yaml';
const servers: { close: () => void }[] = [];
afterEach(() => {
  for (const server of servers.splice(0)) server.close();
});

type Breakage = 'takes-any-form' | 'json-only';

/** Stores photos from multipart forms, read by the platform's own parser (Fetch's FormData); broken one way. */
async function photoServer(breakage?: Breakage): Promise<{ url: string; files: string[] }> {
  const files: string[] = [];
  const server = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const send = (status: number, body: unknown) =>
      res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
    if (req.headers.authorization !== `Bearer ${DEV_API_KEY}`) {
      res.setHeader('www-authenticate', 'Bearer');
      return send(401, { code: 'unauthorized', message: 'no key' });
    }
    if (req.method !== 'POST' || req.url !== '/v1/photos') return send(404, { code: 'not_found', message: 'no such path' });
    const type = req.headers['content-type'] ?? '';
    if (breakage === 'json-only' && !type.startsWith('application/json'))
      return send(400, { code: 'invalid', message: 'JSON only' });
    let form: FormData;
    try {
      form = await new Response(Buffer.concat(chunks), { headers: { 'content-type': type } }).formData();
    } catch {
      return send(400, { code: 'invalid', message: 'not a multipart form' });
    }
    const file = form.get('file');
    const rank = Number(form.get('rank'));
    if (breakage !== 'takes-any-form' && (!(file instanceof Blob) || !Number.isInteger(rank) || rank < 1))
      return send(400, { code: 'invalid', message: 'a file and a rank are required' });
    if (file instanceof Blob) files.push(file.type);
    return send(201, { id: files.length, caption: String(form.get('caption') ?? '') });
  });
  servers.push(server);
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`, files };
}

const run = (target: string) => runCli(['--target', target, '--contract', CONTRACT, '--seed', '1', '-r', 'console,json']);

describe('a request body the contract takes as multipart/form-data', () => {
  it('is sent as a form whose file is a part with a filename, and a server that reads it passes', async () => {
    const server = await photoServer();
    const result = await run(server.url);
    expect(result.code, result.out).toBe(0);
    expect(server.files).toContain('application/octet-stream');
    const report = await result.report();
    const outcome = (id: string) => report.scenarios.find((s) => s.id === id)?.outcome;
    expect(outcome('media-types/uploadPhoto/multipart')).toBe('passed');
    expect(outcome('media-types/uploadPhoto/multipart-without-file')).toBe('passed');
  });

  it.each([
    ['takes a form without its required file', 'takes-any-form', 'media-types/uploadPhoto/multipart-without-file'],
    ['refuses every multipart body', 'json-only', 'media-types/uploadPhoto/multipart'],
  ] as const)('fails a server that %s, naming the case', async (_what, breakage, failing) => {
    const result = await run((await photoServer(breakage)).url);
    expect(result.code, result.out).toBe(1);
    const report = await result.report();
    expect(report.scenarios.find((s) => s.id === failing)?.outcome).toBe('failed');
    expect(blockingCheckIds(report)).toContain('status-expected');
  });

  it('is one the mock reads and validates, and the mock passes the run', async () => {
    const mock = await createMockServer({ contract: CONTRACT, port: 0, host: '127.0.0.1', log: () => {} });
    servers.push({ close: () => void mock.close() });
    const result = await run(mock.url);
    expect(result.code, result.out).toBe(0);
  });
});
