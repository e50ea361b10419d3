import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { BUILT_IN_REPORTERS } from '../../src/conformance/reporters/built-in-reporters.js';
import type { ReporterContext } from '../../src/conformance/reporters/reporter.js';
import type { CoverageRow, Finding, RunResult, ScenarioResult } from '../../src/conformance/run-result.js';
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
  response: {
    status: 200,
    headers: { 'content-type': 'application/json' },
    body: '{"id":"1","name":"<script>"}',
    bodyLength: 28,
  },
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
      scenarios: ['conformance'],
      shard: undefined,
      seed: 7,
      generate: [],
      maxCases: undefined,
      cases: [],
    },
    stopped: undefined,
    causes: [],
    targetGone: undefined,
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
    const failureRows = md.split('\n').filter((l) => l.startsWith('| high | body-schema |'));
    expect(md).toMatch(/\| getPet \(deprecated\) \| GET \/pets\/\{petId\} \| 404 — not exercised \| 0 \| 0 \| 0 \| 0 \|/);
    expect(Number(totals[3])).toBe(failureRows.length);
    return { scenarios: Number(totals[1]), failures: failureRows.length };
  },
  html: ({ files }) => {
    const html = files['report.html'] as string;
    // Self-contained: one inline script of ours, no external script, stylesheet or image; the server's text escaped.
    expect(html.match(/<script/g)).toHaveLength(1);
    expect(html).not.toMatch(/<script[^>]|<link|src=|href="http/);
    const failures = (html.match(/<div class="finding \w+"/g) ?? []).length;
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

// Issue 22: a case that could not be generated is said beside its operation in the coverage table, not only in a hint.
describe.each(['markdown', 'html'])('the %s coverage table', (name) => {
  it('has a "not generated" column with the cases and the reason, on the operation’s row', async () => {
    const run = result(0);
    const [first, ...rest] = run.coverage;
    const reason = 'effects cases of /things (created-readable, ...): /things has no create';
    const withReason = { ...run, coverage: [{ ...(first as CoverageRow), notGenerated: [reason] }, ...rest] };
    const { files } = await render(name, withReason);
    const text = (name === 'markdown' ? files['summary.md'] : files['report.html']) as string;
    expect(text).toContain('not generated');
    const row = text.split('\n').find((line) => line.includes('/things has no create')) as string;
    expect(row).toContain('getPet');
    if (name === 'markdown') {
      expect(row.split(/(?<!\\)\|/)).toHaveLength(10);
      expect(text).toMatch(/1 set of cases not generated/);
    } else expect(row).toMatch(/<td>effects cases of \/things \(created-readable, \.\.\.\): \/things has no create<\/td><\/tr>/);
  });
});

describe('the markdown reporter', () => {
  it('appends the summary to $GITHUB_STEP_SUMMARY, keeping what earlier steps wrote', async () => {
    const { files, stepSummary } = await render('markdown', result(1));
    expect(stepSummary).toBe(`# earlier step\n${files['summary.md']}\n`);
  });
});

describe('the junit reporter', () => {
  it('shows the cases cut short by a target that went away as errors, not failures', async () => {
    const run: RunResult = {
      ...result(2),
      targetGone: {
        at: '2026-01-01T00:00:01.000Z',
        afterMs: 1000,
        failure: 'nothing accepted the connection (ECONNREFUSED)',
        cases: ['conformance/get.yaml/fetch again'],
        failedBefore: 1,
      },
    };
    const root = parseXml((await render('junit', run)).files['junit.xml'] as string);
    expect(findAll(root, 'failure')).toHaveLength(1);
    const errors = findAll(root, 'error');
    expect(errors.map((e) => e.attributes.type)).toEqual(['target-gone']);
    expect(errors[0]?.attributes.message).toContain('since 2026-01-01T00:00:01.000Z');
    expect(root.attributes).toMatchObject({ failures: '1', errors: '1' });
    const suite = findAll(root, 'testsuite').find((t) => t.attributes.name === 'conformance/get.yaml');
    expect(suite?.attributes).toMatchObject({ failures: '1', errors: '1' });
  });
});

const HOSTILE = '\u001b[32mVerdict: PASSED\u001b[0m\u0007\n<script>alert(1)</script><img src=x onerror=alert(2)> | `tick`';

/** A failing run whose target wrote hostile text everywhere it could, with a consequence and a clipped body. */
function hostileRun(): RunResult {
  const finding: Finding = {
    ...FINDING,
    title: `status 500 ${HOSTILE}`,
    received: HOSTILE,
    response: { status: 500, headers: { 'x-evil': HOSTILE }, body: HOSTILE.padEnd(4096, 'x'), bodyLength: 52_428_800 },
    consequences: [{ checkId: 'status-documented', severity: 'medium', title: 'status 500 is not documented for getPet' }],
  };
  const run = result(1);
  return {
    ...run,
    hints: ['your key was refused: check --token'],
    scenarios: run.scenarios.map((s) => (s.outcome === 'failed' ? { ...s, findings: [finding] } : s)),
  };
}

const fileOf: Readonly<Record<string, string>> = {
  json: 'report.json',
  junit: 'junit.xml',
  markdown: 'summary.md',
  html: 'report.html',
};
const outputOf = async (name: string, run: RunResult) => {
  const out = await render(name, run);
  return name === 'console' ? out.lines.join('\n') : (out.files[fileOf[name] as string] as string);
};

describe.each(Object.keys(BUILT_IN_REPORTERS))('the %s reporter shows', (name) => {
  it("the run's seed and its hints", async () => {
    const text = await outputOf(name, hostileRun());
    expect(text).toMatch(name === 'junit' ? /<property name="seed" value="7"\/>/ : /seed\W+(<code>)?7\b/);
    expect(text).toContain('your key was refused: check --token');
  });

  it('why a run stopped on its configuration', async () => {
    const text = await outputOf(name, {
      ...result(0),
      stopped: { kind: 'configuration', reason: 'every request with your key got 401: check --token' },
    });
    expect(text).toContain('every request with your key got 401: check --token');
    if (name === 'junit') expect(findAll(parseXml(text), 'error')).toHaveLength(1);
  });

  it('why a run stopped on a target not serving now, which is no configuration error', async () => {
    const reason = 'every probed operation answered 503 Service Unavailable (Retry-After: 120): the target is not serving now';
    const text = await outputOf(name, { ...result(0), stopped: { kind: 'unavailable', reason } });
    expect(text).toContain('Retry-After: 120');
    expect(text).not.toMatch(/configuration/i);
    if (name === 'junit') expect(findAll(parseXml(text), 'error').map((e) => e.attributes.type)).toEqual(['unavailable']);
    if (name === 'console') expect(text).toContain('Verdict: STOPPED (the target is not serving now, not a contract failure)');
  });
});

describe('target text in reports', () => {
  it('cannot drive the terminal: control characters are shown escaped, no line of its own', async () => {
    const { lines } = await render('console', hostileRun());
    // biome-ignore lint/suspicious/noControlCharactersInRegex: asserting that none is left.
    for (const line of lines) expect(line).not.toMatch(/[\u0000-\u0008\u000b-\u001f\u007f]/);
    expect(lines.filter((l) => /^\s*Verdict:/.test(l))).toEqual([expect.stringMatching(/^Verdict: FAILED/)]);
    expect(lines.join('\n')).toContain('\\e[32mVerdict: PASSED\\e[0m\\x07\\n');
  });

  it('is inert in summary.md and report.html: no tag of its own, table rows keep their cells', async () => {
    const md = (await render('markdown', hostileRun())).files['summary.md'] as string;
    const html = (await render('html', hostileRun())).files['report.html'] as string;
    for (const text of [md, html]) expect(text).not.toMatch(/<img|<script>alert/);
    expect(html.match(/<script/g)).toHaveLength(1);
    const row = md.split('\n').find((l) => l.startsWith('| high |')) as string;
    expect(row.split(/(?<!\\)\|/)).toHaveLength(7);
  });

  it('is rendered with its consequences and the length of a clipped body', async () => {
    for (const name of ['console', 'junit', 'html']) {
      const text = await outputOf(name, hostileRun());
      expect(text, name).toContain('status 500 is not documented for getPet');
      expect(text, name).toContain('the first 4096 of 52428800 characters');
    }
  });
});

describe('reports of a large failing run', () => {
  /** 50 failing cases of 20 findings each: 1,000 findings with long bodies. */
  function largeRun(): RunResult {
    const run = result(1);
    const findings = Array.from({ length: 20 }, (_, i) => ({
      ...FINDING,
      step: i + 1,
      title: `finding ${i} ${'t'.repeat(400)}`,
      response: { ...(FINDING.response as NonNullable<Finding['response']>), body: 'b'.repeat(4096), bodyLength: 9999 },
    }));
    const scenarios = Array.from({ length: 50 }, (_, i) => ({
      ...scenario(`case ${i}`, 'conformance/big.yaml', 'failed', findings),
      id: `big-${i}`,
    }));
    return { ...run, scenarios, totals: { ...run.totals, scenarios: 50, failed: 50, findings: 1000, blockingFindings: 1000 } };
  }

  it('keeps the HTML navigable: grouped by case, a few cases open, every exchange collapsed, a filter', async () => {
    const html = (await render('html', largeRun())).files['report.html'] as string;
    expect(html.match(/<details class="case"/g)).toHaveLength(50);
    expect(html.match(/<details class="case"[^>]* open>/g)).toHaveLength(10);
    expect(html.match(/<details><summary>Exchange:/g)).toHaveLength(1000);
    expect(html).toMatch(/<div id="filter">Severity:.*<select id="check">/s);
    // The filter's inline script at least compiles.
    const script = /<script>([\s\S]*?)<\/script>/.exec(html)?.[1] as string;
    expect(() => new Function(script)).not.toThrow();
    expect(html.indexOf('First failures')).toBeLessThan(html.indexOf('id="coverage"'));
    // A thousand findings from one cause read as one row.
    expect(html).toMatch(
      /<table id="by-check">.*<tr data-check="body-schema"><td><code>body-schema<\/code><\/td><td>high<\/td><td class="n">1000<\/td><td class="n">50<\/td>/s,
    );
  });

  it('lists the failed cases first, and folds the passed and skipped ones into one closed block', async () => {
    const html = (await render('html', result(1))).files['report.html'] as string;
    const failedAt = html.indexOf('<h3>Failed (1)</h3>');
    const othersAt = html.indexOf('<details id="other-cases"><summary><b>Passed and skipped (3)</b></summary>');
    expect(failedAt).toBeGreaterThan(0);
    expect(othersAt).toBeGreaterThan(failedAt);
    expect(html.slice(failedAt, othersAt)).toContain('data-outcome="failed" open>');
    expect(html.slice(othersAt)).not.toContain('data-outcome="failed"');
  });

  it('keeps summary.md within GitHub’s 1 MiB step summary limit, failures in <details>, and says what it left out', async () => {
    const md = (await render('markdown', largeRun())).files['summary.md'] as string;
    expect(Buffer.byteLength(md)).toBeLessThan(1024 * 1024);
    expect(md).toContain('<details open><summary>1000 failures</summary>');
    expect(md).toContain('950 more in report.html and report.json.');
  });

  it('lists at most 100 observations in summary.md, and says how many more there are', async () => {
    const run = result(1);
    const observation = {
      file: 'conformance/list.yaml',
      scenario: 'list',
      step: 1,
      operationId: 'listPets',
      note: 'limit=0',
      status: 400,
      body: '{}',
      curl: 'curl',
    };
    const list = {
      ...scenario('list', 'conformance/list.yaml', 'passed'),
      observations: Array.from({ length: 150 }, () => observation),
    };
    const md = (await render('markdown', { ...run, scenarios: [list, ...run.scenarios.slice(1)] })).files['summary.md'] as string;
    expect(md.split('\n').filter((l) => l.startsWith('- conformance/list.yaml'))).toHaveLength(100);
    expect(md).toContain('53 more in report.html and report.json.');
  });

  it('cuts summary.md at a line, closes its open <details> and says so, when it would still be too long', async () => {
    const run = result(1);
    // A case name of 2 MB: one failure row alone is over the limit.
    const name = `fetch ${'n'.repeat(2_000_000)}`;
    const failing = { ...scenario(name, 'conformance/get.yaml', 'failed', [{ ...FINDING, scenario: name }]) };
    const md = (await render('markdown', { ...run, scenarios: [failing] })).files['summary.md'] as string;
    expect(Buffer.byteLength(md)).toBeLessThan(1024 * 1024);
    expect(md).toMatch(/\*\*Truncated\*\* to stay within GitHub's 1 MiB step summary limit/);
    expect((md.match(/<details/g) ?? []).length).toBe((md.match(/<\/details>/g) ?? []).length);
  });

  it('gives JUnit a failure message that is the first finding’s sentence', async () => {
    const xml = (await render('junit', largeRun())).files['junit.xml'] as string;
    const [failure] = findAll(parseXml(xml), 'failure');
    expect(failure?.attributes.message).toBe(`finding 0 ${'t'.repeat(400)} (and 19 more findings)`);
  });
});

describe('the console reporter', () => {
  it('agrees its counts with its nouns and colours only when the context allows', async () => {
    const run = { ...result(1), totals: { ...result(1).totals, findings: 1, observations: 1 } };
    const plain = await render('console', run);
    expect(plain.lines.join('\n')).toMatch(/; 1 finding \(1 high\); 1 observation;/);
    expect(plain.lines.join('\n')).not.toContain('\u001b[');
    expect(plain.lines.some((l) => l.startsWith('     observed, step 1 (listPets): limit=101: 400'))).toBe(true);
  });
});

describe.each(['json', 'junit', 'markdown', 'html'])('the %s reporter, when the run did not happen', (name) => {
  it('writes why, in place of an earlier report', async () => {
    const dir = await mkdtemp(join(tmpdir(), `not-run-${name}-`));
    const written: Record<string, string> = {};
    const context: ReporterContext = {
      reportDir: dir,
      writeFile: async (file, content) => {
        written[file] = content;
        return file;
      },
      print: () => {},
      stepSummaryFile: undefined,
    };
    const notRun = {
      target: 'http://127.0.0.1:1/v1',
      exitCode: 3,
      code: 'target_unreachable',
      message: 'did not answer: ECONNREFUSED <x>',
      startedAt: 'now',
    };
    await BUILT_IN_REPORTERS[name]?.onRunError?.(notRun, context);
    const text = written[fileOf[name] as string] as string;
    expect(text).toMatch(/did not answer: ECONNREFUSED (<x>|&lt;x&gt;)/);
    if (name === 'junit') expect(findAll(parseXml(text), 'error')).toHaveLength(1);
  });
});

describe('the order of cases', () => {
  /** Cases as the engine may hand them over: generated ones first, in completion order. */
  function mixedRun(): RunResult {
    const generated = (id: string): ScenarioResult => ({
      ...scenario(`generated ${id}`, '', 'passed'),
      id,
      source: 'generated',
      kind: 'invalid-bodies',
    });
    const run = result(0);
    return { ...run, scenarios: [generated('gen-b'), ...run.scenarios, generated('gen-a')] };
  }

  it('is scenario files in file order, then generated cases by id, in every report', async () => {
    const expected = ['list', 'fetch', 'fetch again', 'create', 'generated gen-a', 'generated gen-b'];
    const { lines } = await render('console', mixedRun());
    expect(lines.filter((l) => /^(PASS|FAIL|SKIP) /.test(l)).map((l) => /› (.*) \[/.exec(l)?.[1])).toEqual(expected);
    const junit = parseXml((await render('junit', mixedRun())).files['junit.xml'] as string);
    expect(findAll(junit, 'testcase').map((c) => c.attributes.name)).toEqual(expected);
    expect(findAll(junit, 'testsuite').at(-1)?.attributes.name).toBe('generated: invalid-bodies');
    const html = (await render('html', mixedRun())).files['report.html'] as string;
    expect(html.indexOf('generated gen-a')).toBeLessThan(html.indexOf('generated gen-b'));
  });
});
