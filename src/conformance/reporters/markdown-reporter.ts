import { describeCause } from '../judge/likely-causes.js';
import { appendFile } from 'node:fs/promises';
import { AppError } from '../../contract/app-error.js';
import { markdownText as md } from '../../shared/markdown-text.js';
import type { CoverageRow, RunResult } from '../run-result.js';
import { describeCreated } from './describe-created.js';
import { plural } from './plural.js';
import { sentCredentials } from './sent-credentials.js';
import { reportOrder } from './report-order.js';
import { STOP_TITLES } from './stop-titles.js';
import type { NotRun, Reporter } from './reporter.js';

// GitHub refuses a step summary over 1 MiB; leave room for what other steps append.
const MAX_BYTES = 900 * 1024;
const CAUSE_ROWS = 10;
const FAILURE_ROWS = 50;
const OBSERVATION_ROWS = 100;

/**
 * summary.md: compact, for $GITHUB_STEP_SUMMARY (appended when that is set): the verdict, why a run stopped,
 * the hints and totals in the open; failures, coverage and observations each folded in <details>. Target text
 * goes through markdownText: no tag, link or table cell of its own.
 */
export const markdownReporter: Reporter = {
  name: 'markdown',
  files: ['summary.md'],
  onRunEnd: async (result, context) => {
    await publish(renderMarkdown(result), context);
  },
  onRunError: async (notRun, context) => {
    await publish(renderNotRun(notRun), context);
  },
};

async function publish(markdown: string, { writeFile, stepSummaryFile }: Parameters<NonNullable<Reporter['onRunEnd']>>[1]) {
  await writeFile('summary.md', markdown);
  if (stepSummaryFile) {
    await appendFile(stepSummaryFile, `${markdown}\n`).catch((error: NodeJS.ErrnoException) => {
      throw new AppError('report_unwritable', `Failed to append to ${stepSummaryFile}: ${error.code ?? error.message}`);
    });
  }
}

function renderNotRun(notRun: NotRun): string {
  return [
    '## Conformance: NOT RUN',
    '',
    `> **Exit ${notRun.exitCode}:** ${md(notRun.message)}`,
    '',
    `Target ${notRun.target === undefined ? '(none)' : md(notRun.target)} · ${notRun.startedAt}. No report of an earlier run is kept.`,
    '',
  ].join('\n');
}

function renderMarkdown(result: RunResult): string {
  const { totals } = result;
  const title = result.stopped
    ? `STOPPED (${STOP_TITLES[result.stopped.kind].short})`
    : result.verdict === 'passed'
      ? 'passed'
      : 'FAILED';
  const lines = [
    `## Conformance: ${title}`,
    '',
    ...(result.stopped ? [`> **Stopped:** ${md(result.stopped.reason)}`, ''] : []),
    ...result.causes
      .slice(0, CAUSE_ROWS)
      .flatMap((cause) => [
        `> **Likely cause${result.causes.length > 1 ? ` ${cause.rank}` : ''}:** ${md(describeCause(cause))}`,
        '',
      ]),
    ...result.hints.flatMap((hint) => [`> **Hint:** ${md(hint)}`, '']),
    `Target ${md(result.target)} · ${md(result.contract.title)} ${md(result.contract.version)} · --fail-on ${result.settings.failOn} · seed ${result.settings.seed} · ${(result.durationMs / 1000).toFixed(1)} s`,
    '',
    '| cases | passed | failed | skipped | requests | findings | blocking | observations |',
    '|--:|--:|--:|--:|--:|--:|--:|--:|',
    `| ${totals.scenarios} | ${totals.passed} | ${totals.failed} | ${totals.skipped} | ${totals.exchanges} | ${totals.findings} | ${totals.blockingFindings} | ${totals.observations} |`,
    '',
    ...[describeCreated(result)].flatMap((line) => (line === undefined ? [] : [md(line), ''])),
  ];
  const failures = reportOrder(result.scenarios).flatMap((s) => s.findings.filter((f) => f.blocking).map((f) => ({ s, f })));
  if (failures.length > 0) {
    lines.push(
      `<details open><summary>${plural(failures.length, 'failure')}</summary>`,
      '',
      '| severity | check | case | step | what |',
      '|---|---|---|--:|---|',
    );
    for (const { s, f } of failures.slice(0, FAILURE_ROWS)) {
      const also = f.consequences?.length ? ` (and ${plural(f.consequences.length, 'consequence')})` : '';
      const sent = sentCredentials(f.request);
      const what = sent === undefined ? f.title : `${sent}: ${f.title}`;
      lines.push(
        `| ${f.severity} | ${md(f.checkId)} | ${md(s.name)}<br><sub>${md(s.id)}</sub> | ${f.step} | ${md(what)}${also} |`,
      );
    }
    if (failures.length > FAILURE_ROWS) lines.push('', `${failures.length - FAILURE_ROWS} more in report.html and report.json.`);
    lines.push('', '</details>', '');
  }
  const notExercised = result.coverage.filter((r) => r.documented && r.exercised === 0).length;
  const notGenerated = result.coverage.reduce((n, r) => n + (r.notGenerated?.length ?? 0), 0);
  const alsoNot = notGenerated > 0 ? `, ${plural(notGenerated, 'set')} of cases not generated` : '';
  lines.push(
    `<details><summary>Operations by documented status (${plural(notExercised, 'status', 'statuses')} not exercised${alsoNot})</summary>`,
    '',
    '| operation | method and path | status | exercised | passed | failed | observed | not generated |',
    '|---|---|---|--:|--:|--:|--:|---|',
    ...result.coverage.map(coverageRow),
    '',
    '</details>',
    '',
  );
  const observations = reportOrder(result.scenarios).flatMap((s) => s.observations);
  if (observations.length > 0) {
    lines.push(`<details><summary>${plural(observations.length, 'observation')} (where the contract is silent)</summary>`, '');
    for (const o of observations.slice(0, OBSERVATION_ROWS)) {
      lines.push(
        `- ${md(`${o.file} › ${o.scenario}`)}, step ${o.step} (${o.operationId}): ${md(o.note)}: ${o.status ?? 'no answer'}`,
      );
    }
    if (observations.length > OBSERVATION_ROWS) {
      lines.push('', `${observations.length - OBSERVATION_ROWS} more in report.html and report.json.`);
    }
    lines.push('', '</details>', '');
  }
  return withinLimit(`${lines.join('\n')}\n`);
}

function coverageRow(row: CoverageRow): string {
  const status = `${row.status}${row.documented ? '' : ' (undocumented)'}${row.documented && row.exercised === 0 ? ' — not exercised' : ''}`;
  const name = `${md(row.operationId)}${row.deprecated ? ' (deprecated)' : ''}`;
  const notGenerated = (row.notGenerated ?? []).map(md).join('<br>');
  return `| ${name} | ${md(`${row.method} ${row.path}`)} | ${status} | ${row.exercised} | ${row.passed} | ${row.failed} | ${row.observed} | ${notGenerated} |`;
}

// Cut at a line, close an open <details>, and say so: a summary over the limit would be dropped whole.
function withinLimit(markdown: string): string {
  if (Buffer.byteLength(markdown) <= MAX_BYTES) return markdown;
  const cut = Buffer.from(markdown)
    .subarray(0, MAX_BYTES - 512)
    .toString('utf8');
  const kept = cut.slice(0, cut.lastIndexOf('\n'));
  const open = (kept.match(/<details/g) ?? []).length - (kept.match(/<\/details>/g) ?? []).length;
  return `${kept}\n\n${'</details>\n'.repeat(Math.max(0, open))}\n**Truncated** to stay within GitHub's 1 MiB step summary limit: the whole report is report.html.\n`;
}
