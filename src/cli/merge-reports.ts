import { readFile } from 'node:fs/promises';
import { AppError } from '../contract/app-error.js';
import { mergeResults, parseReport } from '../conformance/merge-results.js';
import { notifyReporters } from '../conformance/reporters/notify-reporters.js';
import type { Reporter, ReporterContext } from '../conformance/reporters/reporter.js';
import type { RunResult } from '../conformance/run-result.js';

/** `--merge a/report.json b/report.json`: the shards' results as one run, written by every chosen reporter. */
export async function mergeReports(
  files: readonly string[],
  reporters: readonly Reporter[],
  context: ReporterContext,
): Promise<RunResult> {
  const results = await Promise.all(
    files.map(async (file) => {
      const text = await readFile(file, 'utf8').catch((error: NodeJS.ErrnoException) => {
        throw new AppError('usage', `--merge ${file}: cannot read it (${error.code ?? error.message})`);
      });
      return parseReport(file, text);
    }),
  );
  const merged = mergeResults(results);
  await notifyReporters(reporters, 'onRunEnd', merged, context);
  return merged;
}
