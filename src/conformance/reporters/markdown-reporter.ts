import { appendFile } from 'node:fs/promises';
import { AppError } from '../../contract/app-error.js';
import type { RunResult } from '../run-result.js';
import type { Reporter } from './reporter.js';

/** summary.md: totals and operations by documented status; appended to $GITHUB_STEP_SUMMARY when that is set. */
export const markdownReporter: Reporter = {
  name: 'markdown',
  onRunEnd: async (result, { writeFile, stepSummaryFile }) => {
    const markdown = renderMarkdown(result);
    await writeFile('summary.md', markdown);
    if (stepSummaryFile) {
      await appendFile(stepSummaryFile, `${markdown}\n`).catch((error: NodeJS.ErrnoException) => {
        throw new AppError('report_unwritable', `Failed to append to ${stepSummaryFile}: ${error.code ?? error.message}`);
      });
    }
  },
};

function renderMarkdown(result: RunResult): string {
  const { totals } = result;
  const lines = [
    `## Conformance: ${result.verdict === 'passed' ? 'passed' : 'FAILED'}`,
    '',
    `Target \`${result.target}\` · ${result.contract.title} ${result.contract.version} · --fail-on ${result.settings.failOn} · ${(result.durationMs / 1000).toFixed(1)} s`,
    '',
    '| scenarios | passed | failed | skipped | requests | findings | blocking | observations |',
    '|--:|--:|--:|--:|--:|--:|--:|--:|',
    `| ${totals.scenarios} | ${totals.passed} | ${totals.failed} | ${totals.skipped} | ${totals.exchanges} | ${totals.findings} | ${totals.blockingFindings} | ${totals.observations} |`,
    '',
    '### Operations by documented status',
    '',
    '| operation | method and path | status | exercised | passed | failed | observed |',
    '|---|---|---|--:|--:|--:|--:|',
    ...result.coverage.map(
      (row) =>
        `| ${row.operationId} | \`${row.method} ${row.path}\` | ${row.status}${row.documented ? '' : ' (undocumented)'} | ${row.exercised} | ${row.passed} | ${row.failed} | ${row.observed} |`,
    ),
  ];
  const failures = result.scenarios.flatMap((s) => s.findings.filter((f) => f.blocking));
  if (failures.length > 0) {
    lines.push('', '### Failures', '', '| severity | check | scenario | step | what |', '|---|---|---|--:|---|');
    for (const f of failures) {
      lines.push(`| ${f.severity} | \`${f.checkId}\` | ${cell(`${f.file} › ${f.scenario}`)} | ${f.step} | ${cell(f.title)} |`);
    }
  }
  return `${lines.join('\n')}\n`;
}

function cell(text: string): string {
  return text.replace(/\|/g, '\\|').replace(/\n/g, ' ');
}
