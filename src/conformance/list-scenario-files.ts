import { readdir, stat } from 'node:fs/promises';
import { basename, dirname, join, relative } from 'node:path';
import { AppError } from '../contract/app-error.js';

const SCENARIO_FILE = /\.ya?ml$/;

/**
 * `--scenarios` names a folder (its .yaml/.yml files), one file, or a pattern whose last segment has `*`
 * (conformance/auth-*.yaml). Sorted, so runs and reports list files in the same order.
 */
export async function listScenarioFiles(where: string): Promise<string[]> {
  const pattern = basename(where);
  if (pattern.includes('*')) {
    const matcher = new RegExp(`^${pattern.split('*').map(escapeRegExp).join('[^/]*')}$`);
    const files = (await readFolder(dirname(where))).filter((name) => matcher.test(name));
    if (files.length === 0) throw new AppError('scenario_invalid', `No scenario file matches ${where}`);
    return files.map((name) => join(dirname(where), name)).sort();
  }
  const info = await stat(where).catch(() => {
    throw new AppError('scenario_invalid', `Failed to read ${where}: no such file or folder`);
  });
  if (!info.isDirectory()) return [where];
  const files = (await readFolder(where)).filter((name) => SCENARIO_FILE.test(name)).sort();
  if (files.length === 0)
    throw new AppError('scenario_invalid', `No scenario files (*.yaml) in ${relative('.', where) || where}`);
  return files.map((name) => join(where, name));
}

async function readFolder(folder: string): Promise<string[]> {
  return readdir(folder).catch(() => {
    throw new AppError('scenario_invalid', `Failed to read ${folder}: no such folder`);
  });
}

function escapeRegExp(text: string): string {
  return text.replace(/[.+?^${}()|[\]\\]/g, '\\$&');
}
