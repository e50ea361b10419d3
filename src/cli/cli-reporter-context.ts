import { writeFile } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { AppError } from '../contract/app-error.js';
import type { ReporterContext } from '../conformance/reporters/reporter.js';
import type { CliIo } from './run-conformance-cli.js';

/**
 * Where the reporters write: files in the report folder, lines on stdout, as the reporters made them. Secrets were
 * taken out of the values they were made from; redacting the finished text would also blank whatever markup,
 * number or id happens to spell a key (`<***suites>` with the key `test`).
 */
export function cliReporterContext(reportDir: string, stepSummaryFile: string | undefined, io: CliIo): ReporterContext {
  // A progress line is written without a line end, so the next output first erases it (ECMA-48 EL, CSI 2 K).
  let progressShown = false;
  const clearProgress = () => {
    if (progressShown) io.out('\r\u001b[2K');
    progressShown = false;
  };
  return {
    reportDir,
    async writeFile(name, content) {
      const path = join(reportDir, name);
      await writeFile(path, content).catch((error: NodeJS.ErrnoException) => {
        throw new AppError('report_unwritable', `Failed to write ${path}: ${error.code ?? error.message}`);
      });
      return relative(process.cwd(), path) || path;
    },
    print: (line) => {
      clearProgress();
      io.out(`${line}\n`);
    },
    progress:
      io.isTTY === true
        ? (line) => {
            clearProgress();
            io.out(line);
            progressShown = true;
          }
        : undefined,
    stepSummaryFile,
    color: io.isTTY === true && !io.env.NO_COLOR,
  };
}
