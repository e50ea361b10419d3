import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { BUILT_IN_REPORTERS } from '../conformance/reporters/built-in-reporters.js';
import type { Reporter, ReporterContext } from '../conformance/reporters/reporter.js';
import type { RunResult } from '../conformance/run-result.js';

/**
 * The report folder holds this run's reports only: the files of reporters this run does not use, left by an
 * earlier run, are removed (a junit.xml of today beside a report.html of last week would read as one run).
 * Only the built-in reporters' own file names, never anything else in the folder.
 */
export async function removeOtherReports(reportDir: string, running: readonly Reporter[]): Promise<void> {
  const names = new Set(running.map((r) => r.name));
  const others = Object.values(BUILT_IN_REPORTERS).filter((r) => !names.has(r.name));
  await Promise.all(others.flatMap((r) => r.files ?? []).map((file) => rm(join(reportDir, file), { force: true })));
}

/** The context, noting the path of each file written: a run without the console says where its reports went. */
export function notingWrites(context: ReporterContext): { context: ReporterContext; written: string[] } {
  const written: string[] = [];
  return {
    context: {
      ...context,
      writeFile: async (name, content) => {
        const path = await context.writeFile(name, content);
        if (!written.includes(path)) written.push(path);
        return path;
      },
    },
    written,
  };
}

/** The one line a run without the console reporter prints: the verdict, and where the reports are. */
export function reportsLine(result: RunResult, written: readonly string[]): string {
  const { totals } = result;
  const verdict = result.stopped ? 'stopped' : `${result.verdict} (${totals.failed} of ${totals.scenarios} cases failed)`;
  return `conformance: ${verdict}; reports written to ${written.length === 0 ? 'no file' : written.join(', ')}`;
}
