import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { createMockServer } from '../../src/mock/create-mock-server.js';
import { DEV_API_KEY } from '../../src/mock/mock-options.js';
import { runCli } from './run-cli.js';

const CONTRACT = 'test/contracts/form-bodies/openapi.yaml';
const servers: { close: () => void }[] = [];
afterEach(() => {
  for (const server of servers.splice(0)) server.close();
});

/** Creates coupons from forms as the contract says; `breakage` 'create-500' fails every create. */
async function couponServer(breakage?: 'create-500'): Promise<{ url: string; forms: string[] }> {
  const forms: string[] = [];
  const server = createServer(async (req, res) => {
    let text = '';
    for await (const chunk of req) text += chunk;
    const send = (status: number, body: unknown) =>
      res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
    if (req.headers.authorization !== `Bearer ${DEV_API_KEY}`) {
      res.setHeader('www-authenticate', 'Bearer');
      return send(401, { code: 'unauthorized', message: 'no key' });
    }
    if (req.method === 'POST' && req.url === '/v1/coupons') {
      forms.push(text);
      const form = new URLSearchParams(text);
      const percent = Number(form.get('percent_off'));
      const duration = form.get('duration');
      if (!req.headers['content-type']?.startsWith('application/x-www-form-urlencoded') || !Number.isInteger(percent))
        return send(400, { code: 'invalid', message: 'a form with percent_off' });
      if (breakage === 'create-500') return send(500, { code: 'oops', message: 'broken' });
      return send(200, { id: `co_${forms.length}`, duration, percent_off: percent });
    }
    return send(404, { code: 'not_found', message: 'no such path' });
  });
  servers.push(server);
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`, forms };
}

describe('a request body the contract takes as a form', () => {
  it('is sent as a form of a valid sample, and a server that takes it passes', async () => {
    const server = await couponServer();
    const run = await runCli(['--target', server.url, '--contract', CONTRACT, '--seed', '1', '-r', 'console,json']);
    expect(run.code, run.out).toBe(0);
    expect(
      server.forms.some((form) => /^duration=(once|forever)&percent_off=\d+/.test(form)),
      server.forms.join('\n'),
    ).toBe(true);
    const report = await run.report();
    expect(report.scenarios.find((s) => s.id === 'media-types/createCoupon/form-urlencoded')?.outcome).toBe('passed');
  });

  it('fails a server whose create answers 500 to it, and names the body it cannot write', async () => {
    const server = await couponServer('create-500');
    const run = await runCli(['--target', server.url, '--contract', CONTRACT, '--seed', '1', '-r', 'console,json']);
    expect(run.code, run.out).toBe(1);
    const report = await run.report();
    expect(report.scenarios.find((s) => s.id === 'media-types/createCoupon/form-urlencoded')?.outcome).toBe('failed');
    expect(run.out).toContain(
      'Not generated: the body cases of uploadImage (valid-bodies, invalid-bodies, media-types): its request body is multipart/form-data, which the runner does not write (it writes JSON, and forms and multipart bodies of flat fields)',
    );
  });

  it('is one the mock takes, and the mock passes the run', async () => {
    const mock = await createMockServer({ contract: CONTRACT, port: 0, host: '127.0.0.1', log: () => {} });
    servers.push({ close: () => void mock.close() });
    const run = await runCli(['--target', mock.url, '--contract', CONTRACT, '--seed', '1', '-r', 'json']);
    expect(run.code, run.out).toBe(0);
    const report = await run.report();
    expect(report.scenarios.find((s) => s.id === 'media-types/createCoupon/form-urlencoded')?.outcome).toBe('passed');
  });
});
