import { spawn } from 'node:child_process';
import { mkdtemp, readFile, stat } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { packageRoot } from '../../src/contract/package-root.js';
import { DEV_API_KEY } from '../../src/mock/mock-options.js';

// Printed by the child as it exits: its peak resident set, in KiB (getrusage ru_maxrss on Linux).
const REPORT_PEAK_RSS = `data:text/javascript,${encodeURIComponent(
  "process.on('exit', () => process.stderr.write('peak-rss-kib=' + process.resourceUsage().maxRSS + '\\n'));",
)}`;

const servers: Server[] = [];
afterAll(async () => {
  for (const server of servers) server.closeAllConnections();
  await Promise.all(servers.map((s) => new Promise((resolve) => s.close(resolve))));
});

/**
 * A target whose listPets answer is a valid list of `bytes` bytes, written as fast as the client reads it.
 * `sent()` is the most bytes any one answer got onto the wire.
 */
async function hugeListTarget(bytes: number): Promise<{ url: string; sent: () => number }> {
  let most = 0;
  const pet = Buffer.from('{"id":1,"name":"Rex","status":"available"},'.repeat(1000));
  const server = createServer((req, res) => {
    if (!req.url?.startsWith('/v1/pets?') && req.url !== '/v1/pets') {
      res.writeHead(404, { 'content-type': 'application/json' }).end('{"status":404,"error":"not_found","message":"no"}');
      return;
    }
    res.writeHead(200, { 'content-type': 'application/json', 'content-length': bytes });
    res.write('[');
    let left = bytes - 1;
    let sent = 1;
    const pump = () => {
      while (left > 0 && !res.destroyed) {
        const chunk = left > pet.length + 1 ? pet : Buffer.from(`${'{"id":1}'.padEnd(left - 1, ' ')}]`).subarray(0, left);
        left -= chunk.length;
        sent += chunk.length;
        most = Math.max(most, sent);
        if (!res.write(chunk)) return;
      }
      if (left <= 0) res.end();
    };
    res.on('drain', pump);
    pump();
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as { port: number }).port}/v1`, sent: () => most };
}

async function runChild(
  target: string,
  reportDir: string,
  args: readonly string[] = ['--no-generate', '--read-only'],
): Promise<{ code: number | null; stdout: string; peakMiB: number }> {
  const cli = join(packageRoot(), 'dist', 'src', 'cli', 'conformance.js');
  const child = spawn(
    process.execPath,
    ['--import', REPORT_PEAK_RSS, cli, '--target', target, '--report-dir', reportDir, ...args],
    { env: { ...process.env, PETSTORE_API_KEY: DEV_API_KEY, NO_COLOR: '1' }, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => {
    stdout += chunk;
  });
  child.stderr.on('data', (chunk: Buffer) => {
    stderr += chunk;
  });
  const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
  const kib = Number(/peak-rss-kib=(\d+)/.exec(stderr)?.[1]);
  return { code, stdout, peakMiB: kib / 1024 };
}

describe('a target that answers with a huge list', () => {
  it.each([
    ['50 MB', 50_000_000],
    ['500 MB', 500_000_000],
  ])(
    '(%s) is read only up to --max-response-bytes: a finding, small reports, peak RSS under 300 MB',
    async (_, bytes) => {
      const target = await hugeListTarget(bytes);
      const reportDir = await mkdtemp(join(tmpdir(), 'huge-'));
      const { code, stdout, peakMiB } = await runChild(target.url, reportDir);
      expect(code, stdout).toBe(1);
      expect(stdout).toMatch(/answered: the answer is larger than --max-response-bytes/);
      expect(peakMiB).toBeGreaterThan(0);
      expect(peakMiB).toBeLessThan(300);
      // The connection was dropped: no answer was sent whole.
      expect(target.sent()).toBeLessThan(bytes);
      for (const file of ['report.json', 'junit.xml', 'summary.md', 'report.html']) {
        expect((await stat(join(reportDir, file))).size, file).toBeLessThan(2 * 1024 * 1024);
      }
      expect(JSON.parse(await readFile(join(reportDir, 'report.json'), 'utf8')).verdict).toBe('failed');
    },
    120_000,
  );
});

describe('a target that answers every request with a 2 MiB list', () => {
  it('is quoted in findings at most a few KiB at a time: short console lines, small reports', async () => {
    const list = `[${'{"id":1,"name":"Rex","status":"available"},'.repeat(50_000)}{"id":2,"name":"Max"}]`;
    const server = createServer((req, res) => {
      req.resume();
      req.on('end', () => res.writeHead(200, { 'content-type': 'application/json' }).end(list));
    });
    servers.push(server);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const reportDir = await mkdtemp(join(tmpdir(), 'quoted-'));
    const { code, stdout } = await runChild(`http://127.0.0.1:${(server.address() as { port: number }).port}/v1`, reportDir, [
      '--no-generate',
    ]);
    expect(code, stdout.slice(0, 2000)).toBe(1);
    expect(stdout).toMatch(/getPet/);
    expect(Math.max(...stdout.split('\n').map((line) => line.length))).toBeLessThan(6000);
    for (const file of ['report.json', 'junit.xml', 'summary.md', 'report.html']) {
      expect((await stat(join(reportDir, file))).size, file).toBeLessThan(2 * 1024 * 1024);
    }
  }, 120_000);
});
