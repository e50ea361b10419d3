import { mkdtemp, readdir, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { packageRoot } from '../../src/contract/package-root.js';
import { parseXml } from '../support/parse-xml.js';
import { delay, isListPets, withQuery } from '../support/pet-mutations.js';
import { startMock } from '../support/start-mock.js';
import { runCli } from './run-cli.js';
import { useMutatedMock } from './use-mutated-mock.js';

const listPetsFile = join(packageRoot(), 'conformance', 'list-pets.yaml');
const failureRows = (summary: string) => summary.split('\n').filter((line) => /^\| (critical|high|medium|low) \|/.test(line));
const whatOf = (row: string) => row.split(' | ').at(-1)?.replace(/ \|$/, '') ?? '';

describe('reports say what was sent, expected and measured', async () => {
  const mock = await startMock();
  const runAgainst = useMutatedMock();

  it("summary.md's what column says what each auth step sent", async () => {
    const run = await runAgainst({ response: (res) => (res.status === 401 ? { ...res, status: 404 } : res) }, [
      '--reporter',
      'json,markdown',
      '--generate',
      'auth',
      '--case',
      'auth/listPets/*/fresh-connection',
    ]);
    expect(run.code).toBe(1);
    const rows = failureRows(await readFile(join(run.reportDir, 'summary.md'), 'utf8'));
    const whats = rows.map(whatOf).filter((what) => what.includes('expected status 401, got 404'));
    expect(whats.length).toBeGreaterThan(3);
    expect(whats.some((what) => what.startsWith('sent no Authorization: expected status 401, got 404'))).toBe(true);
    expect(whats.some((what) => what.startsWith('sent Authorization: Basic &lt;key&gt;: expected status 401, got 404'))).toBe(
      true,
    );
    // Each refused variant reads differently: the line says what was sent.
    expect(new Set(whats).size).toBeGreaterThan(3);
  });

  it('"body: 10 items" says how many were expected', async () => {
    const run = await runAgainst(
      {
        request: (req) =>
          isListPets(req) && !/[?&]limit=/.test(req.url) ? { ...req, url: withQuery(req.url, 'limit', '10') } : req,
      },
      ['--scenarios', listPetsFile, '--no-generate', '--case', 'the default limit is 20'],
    );
    expect(run.code).toBe(1);
    const titles = (await run.report()).scenarios.flatMap((s) => s.findings.map((f) => f.title));
    expect(titles).toContain('body is not as expected: body: 10 items, expected 20');
  });

  it('a hand-written expect: {status: 202} is the scenario file\'s, not "derived from the contract"', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'scenarios-'));
    const file = join(dir, 'accepted.yaml');
    await writeFile(
      file,
      [
        'scenarios:',
        '  - name: createPet answers 202',
        '    description: Given a valid pet, when it is created, then the file expects 202, which the contract does not document',
        '    tags: [mutating]',
        '    steps:',
        '      - operation: createPet',
        "        body: { name: 'Accepted {{run.id}}', categoryId: 1 }",
        '        expect: { status: 202 }',
        '',
      ].join('\n'),
    );
    const run = await runCli(['--target', mock.url, '--scenarios', file, '--no-generate', '--reporter', 'json,console']);
    expect(run.code).toBe(1);
    const finding = (await run.report()).scenarios.flatMap((s) => s.findings).find((f) => f.checkId === 'status-expected');
    expect(finding?.clause).toBe("the step's expected status, as the scenario file expects it");
    expect(run.out).not.toContain('derived from the contract');
    expect(run.out).not.toContain('derives from the contract');
  });

  it('a JUnit suite takes no longer than the run, though its cases ran at once', async () => {
    const run = await runAgainst({ response: (res) => delay(60).then(() => res) }, [
      '--reporter',
      'json,junit',
      '--generate',
      'auth',
      '--case',
      'auth/listPets/*/fresh-connection',
      '--concurrency',
      '8',
    ]);
    const junit = await readFile(join(run.reportDir, 'junit.xml'), 'utf8');
    const total = Number(/<testsuites [^>]*time="([\d.]+)"/.exec(junit)?.[1]);
    const suites = [...junit.matchAll(/<testsuite [^>]*time="([\d.]+)"/g)].map((m) => Number(m[1]));
    const cases = [...junit.matchAll(/<testcase [^>]*time="([\d.]+)"/g)].map((m) => Number(m[1]));
    // The cases' own times add up to more than the run took: they overlapped.
    expect(cases.reduce((a, b) => a + b, 0)).toBeGreaterThan(total);
    for (const suite of suites) expect(suite).toBeLessThanOrEqual(total);
  });
});

describe('a wrong base path', async () => {
  const mock = await startMock();

  it('is one JUnit <error>, no <failure>, and the hint does not suggest /v2/v1', async () => {
    const target = `${new URL(mock.url).origin}/v2`;
    const run = await runCli(['--target', target, '--reporter', 'json,junit', '--no-generate']);
    expect(run.code).toBe(2);
    const junit = await readFile(join(run.reportDir, 'junit.xml'), 'utf8');
    expect(parseXml(junit)).toBeDefined();
    expect(junit.match(/<error /g)).toHaveLength(1);
    expect(junit).not.toContain('<failure ');
    expect(junit).toMatch(/<testsuites [^>]*failures="0" errors="1"/);
    const report = await run.report();
    expect(report.stopped?.reason).toContain(`(e.g. ${new URL(mock.url).origin}/v1)`);
    expect(run.err).not.toContain('/v2/v1');
  });
});

describe('the report folder holds this run and no other', async () => {
  const mock = await startMock();

  it("--reporter junit alone prints where its report is, and removes the other reporters' older files", async () => {
    const dir = await mkdtemp(join(tmpdir(), 'reports-'));
    for (const old of ['report.json', 'report.html', 'summary.md']) await writeFile(join(dir, old), 'last week');
    await writeFile(join(dir, 'notes.txt'), 'mine');
    const run = await runCli([
      '--target',
      mock.url,
      '--generate',
      'auth',
      '--case',
      'auth/listPets/no-header/fresh-connection',
      '--reporter',
      'junit',
      '--report-dir',
      dir,
    ]);
    expect(run.code).toBe(0);
    expect(run.out.trim().split('\n')).toHaveLength(1);
    expect(run.out).toMatch(/^conformance: passed \(0 of \d+ cases failed\); reports written to .*junit\.xml\n$/);
    expect((await readdir(dir)).sort()).toEqual(['junit.xml', 'notes.txt']);
  });

  it('a usage error with a new --report-dir writes the not-run reports there', async () => {
    const parent = await mkdtemp(join(tmpdir(), 'reports-'));
    const fresh = join(parent, 'ci-reports');
    const run = await runCli(['--target', mock.url, '--report-dir', fresh, '--no-such-option']);
    expect(run.code).toBe(2);
    expect(await readFile(join(fresh, 'junit.xml'), 'utf8')).toContain('<error ');
    // A path whose parent is not there creates nothing: it may be a typo.
    const deeper = join(parent, 'missing', 'deeper');
    expect((await runCli(['--target', mock.url, '--report-dir', deeper, '--no-such-option'])).code).toBe(2);
    await expect(readdir(join(parent, 'missing'))).rejects.toThrow();
  });

  it('--generate with --no-generate is a usage error', async () => {
    const run = await runCli(['--target', mock.url, '--generate', 'auth', '--no-generate']);
    expect(run.code).toBe(2);
    expect(run.err).toContain('--no-generate and --generate auth contradict each other');
  });
});
