import { readdirSync, type Stats, statSync } from 'node:fs';
import { basename, dirname, join, relative } from 'node:path';
import { AppError } from '../contract/app-error.js';

const SCENARIO_FILE = /\.ya?ml$/;

/**
 * `--scenarios` names a folder (its .yaml/.yml files), one file, or a pattern whose last segment has `*`
 * (conformance/auth-*.yaml). Sorted, so runs and reports list files in the same order. Synchronous on purpose:
 * for a few small files, each trip through libuv's thread pool costs more than the read itself.
 */
export function listScenarioFiles(where: string): string[] {
  const pattern = basename(where);
  if (pattern.includes('*')) {
    const matcher = new RegExp(`^${pattern.split('*').map(escapeRegExp).join('[^/]*')}$`);
    const files = readFolder(dirname(where)).filter((name) => matcher.test(name));
    if (files.length === 0) throw new AppError('scenario_invalid', `No scenario file matches ${where}`);
    return files.map((name) => join(dirname(where), name)).sort();
  }
  let info: Stats;
  try {
    info = statSync(where);
  } catch {
    throw new AppError('scenario_invalid', `Failed to read ${where}: no such file or folder`);
  }
  if (!info.isDirectory()) return [where];
  const files = readFolder(where).filter((name) => SCENARIO_FILE.test(name)).sort();
  if (files.length === 0)
    throw new AppError('scenario_invalid', `No scenario files (*.yaml) in ${relative('.', where) || where}`);
  return files.map((name) => join(where, name));
}

function readFolder(folder: string): string[] {
  try {
    return readdirSync(folder);
  } catch {
    throw new AppError('scenario_invalid', `Failed to read ${folder}: no such folder`);
  }
}

function escapeRegExp(text: string): string {
  return text.replace(/[.+?^${}()|[\]\\]/g, '\\$&');
}
