import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { BUILT_IN_REPORTERS } from '../../src/conformance/reporters/built-in-reporters.js';
import type { ReporterContext } from '../../src/conformance/reporters/reporter.js';
import type { Finding, RunResult, ScenarioResult } from '../../src/conformance/run-result.js';
import { findAll, parseXml } from '../support/parse-xml.js';

const FINDING: Finding = {
  checkId: 'body-schema',
  severity: 'high',
  clause: 'Resources and their fields',
  title: 'body does not match <Pet> & "friends"',
  received: 'body.id: must be integer',
  documented: 'the 200 response of getPet',
  file: 'conformance/get.yaml',
  scenario: 'fetch',
  step: 2,
  operationId: 'getPet',
  blocking: true,
  request: { method: 'GET', url: 'http://127.0.0.1:1/v1/pets/1', headers: { authorization: 'Bearer ***' }, body: undefined },
  response: { status: 200, headers: { 'content-type': 'application/json' }, body: '{"id":"1","name":"<script>"}', bodyLength: 28 },
  curl: `curl -sS -i 'http://127.0.0.1:1/v1/pets/1' -H "Authorization: Bearer $PETSTORE_API_KEY"`,
  consequences: [],
};

function scenario(name: string, file: string, outcome: ScenarioResult['outcome'], findings: Finding[] = []): ScenarioResult {
  return {
    id: `${file}/${name}`,
    source: 'file',
    kind: undefined,
    file,
    line: 1,
    name,
    description: 'Given, when, then',
    tags: [],
    outcome,
    skipReason: outcome === 'skipped' ? '--read-only' : undefined,
    durationMs: 12,
    exchanges: findings.map((f) => ({
      step: f.step,
      operationId: 'getPet',
      method: 'GET',
      url: f.request.url,
      status: 200,
      documentedAs: '200',
      elapsedMs: 3,
      failed: f.blocking,
      observed: false,
    })),
    findings,
    observations: [
      { file, scenario: name, step: 1, operationId: 'listPets', note: 'limit=101', status: 400, body: '{}', curl: 'curl' },
    ],
  };
}

/** Three files, four scenarios; `failures` of them fail with one finding each. */
function result(failures: number): RunResult {
  const scenarios = [
    scenario('list', 'conformance/list.yaml', 'passed'),
    scenario('fetch', 'conformance/get.yaml', failures > 0 ? 'failed' : 'passed', failures > 0 ? [FINDING] : []),
    scenario('fetch again', 'conformance/get.yaml', failures > 1 ? 'failed' : 'passed', failures > 1 ? [FINDING] : []),
    scenario('create', 'conformance/create.yaml', 'skipped'),
  ];
  return {
    tool: { name: 'conformance', version: '1.0.0' },
    target: 'http://127.0.0.1:1/v1',
    contract: { file: 'openapi.yaml', title: 'Pet Store API', version: '1.0.0' },
    startedAt: '2026-01-01T00:00:00.000Z',
    durationMs: 40,
    settings: {
      failOn: 'medium',
      timeoutMs: 10_000,
      maxResponseTimeMs: 2000,
      concurrency: 4,
      rateLimit: undefined,
      readOnly: true,
      tags: [],
      skipTags: [],
      scenarios: 'conformance',
      seed: 7,
      generate: [],
      maxCases: undefined,
      cases: [],
    },
    stopped: undefined,
    hints: [],
    verdict: failures > 0 ? 'failed' : 'passed',
    totals: {
      scenarios: 4,
      passed: 3 - failures,
      failed: failures,
      skipped: 1,
      exchanges: failures,
      findings: failures,
      blockingFindings: failures,
      observations: 4,
      bySeverity: { critical: 0, high: failures, medium: 0, low: 0 },
    },
    coverage: [
      {
        operationId: 'getPet',
        method: 'GET',
        path: '/pets/{petId}',
        status: '200',
        documented: true,
        deprecated: true,
        exercised: failures,
        passed: 0,
        failed: failures,
        observed: 0,
      },
      {
        operationId: 'getPet',
        method: 'GET',
        path: '/pets/{petId}',
        status: '404',
        documented: true,
        deprecated: true,
        exercised: 0,
        passed: 0,
        failed: 0,
        observed: 0,
      },
    ],
    scenarios,
  };
}

interface Counts {
  readonly scenarios: number;
  readonly failures: number;
}

/** Per reporter: run it, read back what it wrote, and count scenarios and failures from its own output. */
const READERS: Readonly<Record<string, (out: { files: Record<string, string>; lines: string[] }) => Counts>> = {
  console: ({ lines }) => ({
    scenarios: lines.filter((l) => /^(PASS|FAIL|SKIP) /.test(l)).length,
    failures: lines.filter((l) => /^\s+\[high\] body-schema/.test(l)).length,
  }),
  json: ({ files }) => {
    const report = JSON.parse(files['report.json'] as string) as RunResult;
    return { scenarios: report.scenarios.length, failures: report.scenarios.flatMap((s) => s.findings).length };
  },
  junit: ({ files }) => {
    const root = parseXml(files['junit.xml'] as string);
    expect(root.name).toBe('testsuites');
    expect(findAll(root, 'testsuite').map((s) => s.attributes.name)).toEqual([
      'conformance/list.yaml',
      'conformance/get.yaml',
      'conformance/create.yaml',
    ]);
    expect(findAll(root, 'skipped')).toHaveLength(1);
    const failures = findAll(root, 'failure');
    expect(Number(root.attributes.failures)).toBe(failures.length);
    for (const failure of failures) expect(failure.text).toContain('Received:   body.id: must be integer');
    return { scenarios: findAll(root, 'testcase').length, failures: failures.length };
  },
  markdown: ({ files }) => {
    const md = files['summary.md'] as string;
    const totals =
      md
        .split('\n')
        .find((l) => /^\| \d/.test(l))
        ?.split('|')
        .map((c) => c.trim()) ?? [];
    const failureRows = md.split('\n').filter((l) => l.startsWith('| high | `body-schema`'));
    expect(md).toMatch(/\| getPet \| `GET \/pets\/\{petId\}` \| 404 \| 0 \| 0 \| 0 \| 0 \|/);
    expect(Number(totals[3])).toBe(failureRows.length);
    return { scenarios: Number(totals[1]), failures: failureRows.length };
  },
  html: ({ files }) => {
    const html = files['report.html'] as string;
    // Self-contained: no script, no external stylesheet or image, and the server's text is escaped.
    expect(html).not.toMatch(/<script|<link|src=|href="http/);
    const failures = (html.match(/<section class="finding">/g) ?? []).length;
    if (failures > 0) {
      // Each failure shows the response (escaped) and the curl line.
      expect(html).toContain('&lt;script&gt;');
      expect(html).toContain('curl -sS -i');
    }
    const totalsRow = /<table id="totals">.*?<\/tr>\s*<tr>(.*?)<\/tr>/s.exec(html)?.[1] ?? '';
    const cells = [...totalsRow.matchAll(/<td class="n">(\d+)<\/td>/g)].map((m) => Number(m[1]));
    return { scenarios: cells[0] as number, failures };
  },
};

async function render(name: string, run: RunResult) {
  const dir = await mkdtemp(join(tmpdir(), `reporter-${name}-`));
  const summary = join(dir, 'step-summary.md');
  await writeFile(summary, '# earlier step\n');
  const lines: string[] = [];
  const written: string[] = [];
  const context: ReporterContext = {
    reportDir: dir,
    writeFile: async (file, content) => {
      await writeFile(join(dir, file), content);
      written.push(file);
      return file;
    },
    print: (line) => lines.push(...line.split('\n')),
    stepSummaryFile: summary,
  };
  const reporter = BUILT_IN_REPORTERS[name];
  await reporter?.onRunStart?.({ target: run.target, scenarios: run.scenarios.length, files: 3, seed: 7 }, context);
  for (const s of run.scenarios) await reporter?.onScenarioEnd?.(s, context);
  await reporter?.onRunEnd?.(run, context);
  const files = Object.fromEntries(await Promise.all(written.map(async (f) => [f, await readFile(join(dir, f), 'utf8')])));
  return { files, lines, stepSummary: await readFile(summary, 'utf8') };
}

describe.each(Object.keys(BUILT_IN_REPORTERS))('the %s reporter', (name) => {
  const read = READERS[name] as (typeof READERS)[string];

  it('reports a passing run with no failure', async () => {
    expect(read(await render(name, result(0)))).toEqual({ scenarios: 4, failures: 0 });
  });

  it('reports each failure of a failing run exactly once', async () => {
    expect(read(await render(name, result(1)))).toEqual({ scenarios: 4, failures: 1 });
    expect(read(await render(name, result(2)))).toEqual({ scenarios: 4, failures: 2 });
  });
});

describe('the markdown reporter', () => {
  it('appends the summary to $GITHUB_STEP_SUMMARY, keeping what earlier steps wrote', async () => {
    const { files, stepSummary } = await render('markdown', result(1));
    expect(stepSummary).toBe(`# earlier step\n${files['summary.md']}\n`);
  });
});
