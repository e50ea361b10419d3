import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { request } from 'undici';
import { afterAll, describe, expect, it } from 'vitest';
import { startMutatingProxy } from '../support/mutating-proxy.js';
import { parseXml } from '../support/parse-xml.js';
import { startMock } from '../support/start-mock.js';
import { runConformance } from '../../src/conformance/run-conformance.js';
import { runCli } from './run-cli.js';

const jsonSafe = (_: string, value: unknown) => (typeof value === 'bigint' ? String(value) : value);

/** A run as a library caller starts one: no reporters, so nothing redacts the result after the run. */
const LIBRARY_RUN = {
  scenarios: join(import.meta.dirname, '../../conformance'),
  failOn: 'medium',
  timeoutMs: 10_000,
  maxResponseTimeMs: 2_000,
  concurrency: 4,
  rateLimit: undefined,
  readOnly: false,
  skipTags: [],
  version: 'test',
} as const;

const KEY = 'pk/live_Hostile0123456789';
const b64 = (text: string) => Buffer.from(text).toString('base64');
const uEscaped = (text: string) => [...text].map((c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`).join('');

/** Every form the key must not take in any output: as sent, and each encoding a target may echo it in. */
const LEAKS = [
  KEY,
  KEY.toLowerCase(),
  KEY.replace('/', '\\/'),
  uEscaped(KEY),
  b64(KEY),
  b64(`Bearer ${KEY}`),
  encodeURIComponent(KEY),
  encodeURIComponent(KEY).toLowerCase(),
];

const servers: Server[] = [];
afterAll(async () => {
  for (const server of servers) server.closeAllConnections();
  await Promise.all(servers.map((s) => new Promise((resolve) => s.close(resolve))));
});

async function serve(handler: (req: IncomingMessage, res: ServerResponse) => void): Promise<string> {
  const server = createServer(handler);
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as { port: number }).port}`;
}

/** The mock behind a front that answers with the mock's answer, changed by `change` (bytes, so it may compress). */
async function front(
  upstream: string,
  change: (answer: { status: number; headers: Record<string, string>; body: Buffer }, res: ServerResponse) => void,
): Promise<string> {
  const origin = new URL(upstream).origin;
  const base = await serve(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const headers = Object.fromEntries(
      Object.entries(req.headers).filter(([n]) => !['host', 'connection', 'content-length'].includes(n)),
    );
    const reply = await request(`${origin}${req.url}`, {
      method: req.method as 'GET',
      headers: headers as Record<string, string>,
      body: chunks.length ? Buffer.concat(chunks) : undefined,
    });
    const answerHeaders = Object.fromEntries(
      Object.entries(reply.headers).filter(
        ([n]) => !['content-length', 'connection', 'keep-alive', 'transfer-encoding'].includes(n),
      ),
    ) as Record<string, string>;
    change({ status: reply.statusCode, headers: answerHeaders, body: Buffer.from(await reply.body.arrayBuffer()) }, res);
  });
  return `${base}/v1`;
}

async function everythingWritten(run: Awaited<ReturnType<typeof runCli>>): Promise<string> {
  const files = await readdir(run.reportDir);
  const texts = await Promise.all(files.map((f) => readFile(join(run.reportDir, f), 'utf8')));
  return [run.out, run.err, ...texts].join('\n');
}

describe('against a hostile target', async () => {
  const mock = await startMock({ apiKeys: [KEY] });

  /** The mock behind a front that answers 500 to everything, echoing the key in every encoding it can. */
  const echoingKey = () =>
    startMutatingProxy(mock.url, {
      response: (_, req) => {
        const sent = req.headers.authorization ?? '';
        const echoes = [sent, ...LEAKS.slice(2), b64(sent), encodeURIComponent(sent).toLowerCase(), `Basic ${b64(`u:${KEY}`)}`];
        return {
          status: 500,
          headers: {
            'content-type': 'application/json',
            [`x-echo-${KEY.replace('/', '_')}`]: b64(sent),
            'www-authenticate': sent,
          },
          body: `{"status":500,"error":"echo","message":"${echoes.map((e) => e.replace(/["\\]/g, (c) => `\\${c}`)).join(' ')}","php":"${KEY.replace('/', '\\/')}","u":"${uEscaped(KEY)}"}`,
        };
      },
    });

  /** The mock behind a front that answers 500 to everything, with this Error body. */
  const answering500 = (body: unknown) =>
    startMutatingProxy(mock.url, {
      response: () => ({ status: 500, headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }),
    });

  const expectNoLeak = (written: string) => {
    expect(written).toContain('***');
    for (const leak of LEAKS) expect(written, leak).not.toContain(leak);
    expect(written).not.toContain(KEY.slice(-12));
  };

  it('keeps the key out of every report and console line, whatever encoding the target echoes it in', async () => {
    const proxy = await echoingKey();
    try {
      const run = await runCli(['--target', proxy.url, '--tags', 'auth'], { PETSTORE_API_KEY: KEY });
      expect(run.code).toBe(1);
      expectNoLeak(await everythingWritten(run));
      // Redacted value by value, so every report still parses, and the echoes are shown as ***.
      parseXml(await readFile(join(run.reportDir, 'junit.xml'), 'utf8'));
      const report = await run.report();
      expect(report.scenarios.flatMap((s) => s.findings.map((f) => f.response?.headers['www-authenticate']))).toContain(
        'Bearer ***',
      );
    } finally {
      await proxy.close();
    }
  });

  it('keeps it out of the run result and of what onExchange sees, with no reporter redacting after', async () => {
    const proxy = await echoingKey();
    try {
      const seen: string[] = [];
      const result = await runConformance({
        ...LIBRARY_RUN,
        target: proxy.url,
        token: KEY,
        tags: ['auth'],
        onExchange: ({ exchange }) =>
          seen.push(
            JSON.stringify(
              { ...exchange, response: exchange.response && { ...exchange.response, json: exchange.response.json } },
              jsonSafe,
            ),
          ),
      });
      expect(result.verdict).toBe('failed');
      expect(seen.length).toBeGreaterThan(10);
      expectNoLeak(JSON.stringify(result, jsonSafe));
      expectNoLeak(seen.join('\n'));
    } finally {
      await proxy.close();
    }
  });

  it('keeps the key, and the piece a quote leaves of it, out of what cases capture, expect and report', async () => {
    // Each created pet answers with the key as its id, which later steps capture, put in their URL and expect
    // back, and in its name after 488 characters: a quote of the name by its first 500 cuts the key, leaving 12
    // of its characters, fewer than the run that counts as the key.
    const proxy = await startMutatingProxy(mock.url, {
      response: (res, req) => {
        if (req.method !== 'POST' || res.status !== 201) return res;
        const pet = JSON.parse(res.body) as Record<string, unknown>;
        const sent = (req.headers.authorization ?? '').replace(/^Bearer /, '');
        return { ...res, body: JSON.stringify({ ...pet, id: sent, name: `${'n'.repeat(488)}${sent}` }) };
      },
    });
    try {
      const seen: string[] = [];
      const result = await runConformance({
        ...LIBRARY_RUN,
        scenarios: join(import.meta.dirname, '../../conformance/create-pet.yaml'),
        generate: [],
        target: proxy.url,
        token: KEY,
        tags: [],
        onExchange: ({ exchange, expect, caseId }) =>
          seen.push(JSON.stringify({ exchange: { ...exchange, response: exchange.response?.text }, expect, caseId }, jsonSafe)),
      });
      expect(result.verdict).toBe('failed');
      const run = await runCli(['--target', proxy.url, '--scenarios', 'conformance/create-pet.yaml', '--no-generate'], {
        PETSTORE_API_KEY: KEY,
      });
      expect(run.code).toBe(1);
      for (const written of [JSON.stringify(result, jsonSafe), seen.join('\n'), await everythingWritten(run)]) {
        expectNoLeak(written);
        for (let at = 0; at + 8 <= KEY.length; at++) expect(written, KEY.slice(at, at + 8)).not.toContain(KEY.slice(at, at + 8));
      }
    } finally {
      await proxy.close();
    }
  });

  it('cannot print a fake verdict or ring the bell, nor put a tag into summary.md or a control into junit.xml', async () => {
    // U+009B is a one-character CSI: a terminal that prints a JUnit message (a CI log) would colour its line.
    const hostile =
      '\u001b[2K\r\u001b[32mVerdict: PASSED\u001b[0m\u0007\u2028Verdict: PASSED\u2029\u009b32m\u007f <script>alert(1)</script><img src=x onerror=alert(2)>';
    const proxy = await answering500({ message: hostile });
    try {
      const run = await runCli(['--target', proxy.url, '--tags', 'auth'], { PETSTORE_API_KEY: KEY });
      expect(run.code).toBe(1);
      // biome-ignore lint/suspicious/noControlCharactersInRegex: asserting that none reached stdout.
      expect(run.out).not.toMatch(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u2028\u2029]/);
      expect(run.out.split('\n').filter((l) => /^\s*Verdict:/.test(l))).toEqual([expect.stringMatching(/^Verdict: FAILED/)]);
      const summary = await readFile(join(run.reportDir, 'summary.md'), 'utf8');
      const html = await readFile(join(run.reportDir, 'report.html'), 'utf8');
      expect(summary).not.toMatch(/<script|<img/);
      expect(html).not.toMatch(/<script>alert|<img/);
      for (const file of ['report.html', 'junit.xml', 'summary.md']) {
        const text = await readFile(join(run.reportDir, file), 'utf8');
        if (file !== 'summary.md') expect(text, file).toContain('32m');
        // biome-ignore lint/suspicious/noControlCharactersInRegex: asserting that none reached the report.
        expect(text, file).not.toMatch(/[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f]/);
      }
    } finally {
      await proxy.close();
    }
  });

  it('links no one in summary.md, which CI posts, nor an issue or a URL, and keeps its table, whatever the target says', async () => {
    const WJ = '\u2060';
    const hostile =
      'ping @octocat, fixes #123 | [click](https://evil.example) ![x](https://evil.example/x.png) <http://evil.example/a>\nnext | line\r\n| row |';
    // Its Error status is the hostile text, which the failure's title quotes.
    const proxy = await answering500({ status: hostile, error: hostile, message: hostile });
    try {
      const run = await runCli(['--target', proxy.url, '--tags', 'auth'], { PETSTORE_API_KEY: KEY });
      expect(run.code).toBe(1);
      const summary = await readFile(join(run.reportDir, 'summary.md'), 'utf8');
      // The text is there, and reads the same once the invisible word joiners are taken out.
      expect(summary).toContain(`@${WJ}octocat`);
      expect(summary.replaceAll(WJ, '')).toContain('ping @octocat, fixes \\#123');
      expect(summary).not.toMatch(/@octocat|#123|https?:\/\/|www\.|(?<!\\)\[click|(?<!\\)!\[|<http/);
      // Each failure row keeps its five cells: no pipe from the target ends one.
      const rows = summary.split('\n').filter((line) => line.includes('octocat'));
      expect(rows.length).toBeGreaterThan(0);
      for (const row of rows) expect(row.match(/(?<!\\)(?:\\\\)*\|/g), row).toHaveLength(6);
    } finally {
      await proxy.close();
    }
  });
});

describe('against a target that speaks HTTP as real servers do', async () => {
  const mock = await startMock({ apiKeys: [KEY] });

  it('passes a correct target that gzips every answer', async () => {
    const target = await front(mock.url, (answer, res) => {
      const body = gzipSync(answer.body);
      res.writeHead(answer.status, { ...answer.headers, 'content-encoding': 'gzip', 'content-length': body.length }).end(body);
    });
    const run = await runCli(['--target', target, '--reporter', 'console,json', '--no-generate'], { PETSTORE_API_KEY: KEY });
    expect(run.out).toMatch(/Verdict: PASSED/);
    expect(run.code).toBe(0);
  });

  it('passes a correct target that sends an unsolicited 100 Continue before every answer (RFC 9110 §15.2)', async () => {
    const target = await front(mock.url, (answer, res) => {
      res.writeContinue();
      res.writeHead(answer.status, { ...answer.headers, 'content-length': answer.body.length }).end(answer.body);
    });
    const run = await runCli(['--target', target, '--reporter', 'console,json', '--no-generate'], { PETSTORE_API_KEY: KEY });
    expect(run.out).toMatch(/Verdict: PASSED/);
    expect(run.code).toBe(0);
  });

  it('reports an id with a lone surrogate as a step it could not send, and does not crash', async () => {
    const target = await front(mock.url, (answer, res) => {
      const body =
        answer.status === 201 ? Buffer.from(answer.body.toString().replace(/"id":\d+/, '"id":"\\ud800"')) : answer.body;
      res.writeHead(answer.status, { ...answer.headers, 'content-length': body.length }).end(body);
    });
    const run = await runCli(['--target', target, '--case', 'create-pet/*', '--reporter', 'console,json'], {
      PETSTORE_API_KEY: KEY,
    });
    expect(run.err).toBe('');
    expect(run.code).toBe(1);
    const report = await run.report();
    // The step that could not be sent follows from the create's answer: it is shown under that first failure.
    const titles = report.scenarios.flatMap((s) => s.findings).flatMap((f) => [f.title, ...f.consequences.map((c) => c.title)]);
    expect(titles).toContainEqual(expect.stringMatching(/not well-formed Unicode \(a lone surrogate\)/));
  });

  it('takes a count of pets to create only from 0 to what it needs, however negative the list the target answers', async () => {
    let creates = 0;
    const target = await front(mock.url, (answer, res) => {
      const isList = answer.body.toString().startsWith('[');
      if (answer.status === 201) creates++;
      const body = isList ? Buffer.from('-1000000000') : answer.body;
      res.writeHead(answer.status, { ...answer.headers, 'content-length': body.length }).end(body);
    });
    const run = await runCli(['--target', target, '--case', 'pagination/*', '--reporter', 'json'], { PETSTORE_API_KEY: KEY });
    expect(run.err).toBe('');
    expect(run.code).toBe(1);
    expect(creates).toBeLessThan(1000);
  });

  it('judges a 307 as the status it is, never following its Location', async () => {
    const paths: string[] = [];
    const base = await serve((req, res) => {
      paths.push(req.url ?? '');
      res.writeHead(307, { location: '/elsewhere' }).end();
    });
    const run = await runCli(['--target', `${base}/v1`, '--tags', 'auth', '--reporter', 'json'], { PETSTORE_API_KEY: KEY });
    const report = await run.report();
    const findings = report.scenarios.flatMap((s) => s.findings);
    expect(findings.some((f) => f.response?.status === 307 && /307/.test(`${f.title} ${f.received}`))).toBe(true);
    expect(paths).not.toContain('/elsewhere');
  });
});
