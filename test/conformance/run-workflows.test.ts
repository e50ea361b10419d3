import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { packageRoot } from '../../src/contract/package-root.js';
import { parseXml } from '../support/parse-xml.js';
import { startMock } from '../support/start-mock.js';
import { runCli } from './run-cli.js';

const listed = (out: string) =>
  out
    .trim()
    .split('\n')
    .map((line) => line.split('  ')[0] as string);

describe('conformance workflows: --list, --shard, --merge, --scenarios, --wait', async () => {
  const mock = await startMock();
  const servers: Server[] = [];
  afterAll(() => {
    for (const server of servers) server.close();
  });

  it('--list prints the ids of exactly the cases a run sends, and sends nothing', async () => {
    let requests = 0;
    const counting = createServer((_req, res) => {
      requests++;
      res.end();
    });
    servers.push(counting);
    await new Promise<void>((done) => counting.listen(0, '127.0.0.1', done));
    const target = `http://127.0.0.1:${(counting.address() as { port: number }).port}/v1`;
    const list = await runCli(['--list', '--target', target, '--seed', '7', '--generate', 'auth,ids']);
    expect(list.code).toBe(0);
    expect(requests).toBe(0);
    const run = await runCli(['--target', mock.url, '--seed', '7', '--generate', 'auth,ids', '--reporter', 'json']);
    const ran = (await run.report()).scenarios.filter((s) => s.id !== 'probe/target').map((s) => s.id);
    expect(listed(list.out).sort()).toEqual(ran.sort());
    expect(list.err).toContain(`${ran.length} cases; nothing was sent`);
  });

  it('--verbose prints each inferred resource in detail on stderr, the cases staying alone on stdout', async () => {
    const contract = 'test/contracts/references-by-convention/openapi.yaml';
    const list = await runCli(['--list', '--verbose', '--contract', contract, '--case', 'valid-bodies/createOrder/all-fields']);
    expect(listed(list.out)).toEqual(['valid-bodies/createOrder/all-fields']);
    expect(list.err).toContain('  /orders (orders): id field id (the path parameter id)');
    expect(list.err).toContain('    refers by customer_id to /customers');
    expect(list.err).toContain('    delete deleteLine DELETE /order-lines/{id}');
    expect((await runCli(['--list', '--contract', contract])).err).not.toContain('in detail');
  });

  it('--list counts one case as one case', async () => {
    const list = await runCli(['--list', '--case', 'valid-bodies/createPet/name/markup']);
    expect(listed(list.out)).toEqual(['valid-bodies/createPet/name/markup']);
    expect(list.err).toContain('1 case; nothing was sent');
  });

  it('--shard i/n deals every case into exactly one slice, keeps a file together, and is the same on every call', async () => {
    const all = listed((await runCli(['--list', '--seed', '3'])).out);
    const slices = await Promise.all(
      [1, 2, 3].map(async (i) => listed((await runCli(['--list', '--seed', '3', '--shard', `${i}/3`])).out)),
    );
    expect(slices.flat().sort()).toEqual([...all].sort());
    expect(new Set(slices.flat()).size).toBe(all.length);
    for (const slice of slices) expect(slice.length).toBeGreaterThan(all.length / 6);
    const holding = (prefix: string) => slices.filter((slice) => slice.some((id) => id.startsWith(prefix))).length;
    expect(holding('auth/listpets-and-getpet')).toBe(1);
    expect(holding('list-pets/')).toBe(1);
    expect(listed((await runCli(['--list', '--seed', '3', '--shard', '2/3'])).out)).toEqual(slices[1]);
    expect((await runCli(['--list', '--shard', '4/3'])).code).toBe(2);
  });

  it('--merge makes one set of reports from the shards: each case once, the totals added, JUnit that parses', async () => {
    const shards = await Promise.all(
      ['1/2', '2/2'].map((shard) =>
        runCli(['--target', mock.url, '--seed', '5', '--generate', 'auth,media-types', '--shard', shard]),
      ),
    );
    for (const shard of shards) expect(shard.code).toBe(0);
    const reports = await Promise.all(shards.map((s) => s.report()));
    const merged = await runCli([
      '--merge',
      join(shards[0]?.reportDir as string, 'report.json'),
      '--merge',
      join(shards[1]?.reportDir as string, 'report.json'),
    ]);
    expect(merged.code).toBe(0);
    const report = await merged.report();
    // Both shards sent the probe; the merged run holds it once.
    expect(report.totals.scenarios).toBe((reports[0]?.totals.scenarios ?? 0) + (reports[1]?.totals.scenarios ?? 0) - 1);
    expect(new Set(report.scenarios.map((s) => s.id)).size).toBe(report.scenarios.length);
    const exercised = (r: typeof report) => r.coverage.reduce((n, row) => n + row.exercised, 0);
    expect(exercised(report)).toBe(report.totals.exchanges);
    const junit = parseXml(await readFile(join(merged.reportDir, 'junit.xml'), 'utf8'));
    expect(junit).toBeDefined();
    expect((await runCli(['--merge', join(merged.reportDir, 'junit.xml')])).code).toBe(2);
  });

  it('--scenarios given twice runs the files of both', async () => {
    const suite = join(packageRoot(), 'conformance');
    const run = await runCli([
      '--target',
      mock.url,
      '--no-generate',
      '--reporter',
      'json',
      '--scenarios',
      join(suite, 'auth.yaml'),
      '--scenarios',
      join(suite, 'get-pet.yaml'),
    ]);
    expect(run.code).toBe(0);
    const files = new Set((await run.report()).scenarios.filter((s) => s.source === 'file').map((s) => s.file.split('/').pop()));
    expect(files).toEqual(new Set(['auth.yaml', 'get-pet.yaml']));
  });

  it('--scenarios @shipped names the shipped suite beside a file of your own', async () => {
    const own = join(await mkdtemp(join(tmpdir(), 'own-')), 'own.yaml');
    await writeFile(
      own,
      'scenarios:\n  - name: lists pets\n    description: Given the API, when pets are listed, then the answer is 200.\n    steps:\n      - operation: listPets\n        expect: { status: 200 }\n',
    );
    const run = await runCli(['--list', '--no-generate', '--scenarios', '@shipped', '--scenarios', own]);
    expect(run.code).toBe(0);
    expect(listed(run.out)).toContain('own/lists-pets');
    expect(listed(run.out)).toContain('auth/createpet-refuses-missing-malformed-and-unknown-keys');
  });

  it('--wait waits for a target that starts listening late, then runs; and says what it waits for', async () => {
    const late = createServer((req, res) => {
      res.writeHead(404, { 'content-type': 'application/json' }).end('{"code":"not_found","message":"no","status":404}');
      void req;
    });
    servers.push(late);
    // Take a free port, then release it and listen on it again 600 ms into the run.
    await new Promise<void>((done) => late.listen(0, '127.0.0.1', done));
    const port = (late.address() as { port: number }).port;
    await new Promise<void>((done) => late.close(() => done()));
    setTimeout(() => late.listen(port, '127.0.0.1'), 600);
    const run = await runCli(['--target', `http://127.0.0.1:${port}/v1`, '--wait', '20s', '--no-generate', '--reporter', 'json']);
    expect(run.err).toContain(`waiting up to 20s for http://127.0.0.1:${port}/v1 to answer`);
    // The target answered (404 everywhere): the run happened, and stopped on the wrong base path, not as unreachable.
    expect(run.code).toBe(2);
    expect(run.err).toMatch(/404/);
  });

  it('--wait gives up with exit 3 after the wait when nothing ever answers', async () => {
    const gone = createServer();
    await new Promise<void>((done) => gone.listen(0, '127.0.0.1', done));
    const port = (gone.address() as { port: number }).port;
    await new Promise<void>((done) => gone.close(() => done()));
    const run = await runCli(['--target', `http://127.0.0.1:${port}/v1`, '--wait', '1s', '--no-generate']);
    expect(run.code).toBe(3);
    expect(run.err).toContain('did not answer within --wait 1s');
  });

  it('refuses with exit 2 a --merge of a file that is not a report.json, naming it', async () => {
    const file = join(await mkdtemp(join(tmpdir(), 'merge-')), 'not-json.json');
    await writeFile(file, 'nope');
    const run = await runCli(['--merge', file]);
    expect(run.code).toBe(2);
    expect(run.err).toContain(`--merge ${file}: not JSON`);
  });
});
