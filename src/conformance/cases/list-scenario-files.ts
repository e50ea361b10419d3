import { existsSync, readdirSync, type Stats, statSync } from 'node:fs';
import { isAbsolute, join } from 'node:path';
import { globSync, isDynamicPattern } from 'tinyglobby';
import { AppError } from '../../contract/app-error.js';
import { packageRoot } from '../../contract/package-root.js';

const SCENARIO_FILE = /\.ya?ml$/;

/**
 * The default --scenarios: `conformance/` where the command runs, as a project keeping its own suite expects;
 * otherwise the suite shipped with this package, so `npx conformance --target …` works from any folder.
 */
export function defaultScenarios(): string {
  return existsSync('conformance') ? 'conformance' : join(packageRoot(), 'conformance');
}

/**
 * `--scenarios` names a folder (its .yaml/.yml files), one file, or a glob (`conformance/auth-*.yaml`,
 * `suites/**\/*.yaml`). Sorted, so runs and reports list files in the same order. Synchronous on purpose: for a
 * few small files, each trip through libuv's thread pool costs more than the read itself.
 */
/** `--scenarios @shipped`: the suite shipped with this package, named beside a project's own files. */
export const SHIPPED_SUITE = '@shipped';

export function listScenarioFiles(given: string): string[] {
  const where = given === SHIPPED_SUITE ? join(packageRoot(), 'conformance') : given;
  if (isDynamicPattern(where)) {
    const files = globSync(where, { onlyFiles: true, expandDirectories: false, absolute: isAbsolute(where) }).filter((f) =>
      SCENARIO_FILE.test(f),
    );
    if (files.length === 0) throw new AppError('scenario_invalid', `No scenario file (*.yaml, *.yml) matches ${where}`);
    return files.sort();
  }
  let info: Stats;
  try {
    info = statSync(where);
  } catch {
    throw new AppError('scenario_invalid', `Failed to read ${where}: no such file or folder`);
  }
  if (!info.isDirectory()) return [where];
  // A folder without scenario files is a run of the generated cases alone.
  return readFolder(where)
    .filter((name) => SCENARIO_FILE.test(name))
    .sort()
    .map((name) => join(where, name));
}

function readFolder(folder: string): string[] {
  try {
    return readdirSync(folder);
  } catch {
    throw new AppError('scenario_invalid', `Failed to read ${folder}: no such folder`);
  }
}
