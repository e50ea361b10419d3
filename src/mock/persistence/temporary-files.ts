import { randomBytes } from 'node:crypto';
import { readdir, rm } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { isProcessAlive } from './is-process-alive.js';

/**
 * A temporary name beside `file`, unique per write: the process id (so that a stale one can be recognised) and
 * random characters (so that two mocks of one process never share one).
 */
export function temporaryName(file: string): string {
  return `${file}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`;
}

/**
 * Removes the temporary files a writer of `file` left behind when it was killed mid-write (`<file>.<pid>.tmp` of
 * older versions, `<file>.<pid>.<random>.tmp` of this one), where that process is gone. Returns their names.
 */
export async function removeStaleTemporaries(file: string): Promise<string[]> {
  const base = basename(file);
  const folder = dirname(file);
  const removed: string[] = [];
  for (const name of await readdir(folder).catch(() => [] as string[])) {
    if (!name.startsWith(`${base}.`) || !name.endsWith('.tmp')) continue;
    const match = /^(\d+)(?:\.[0-9a-f]+)?\.tmp$/.exec(name.slice(base.length + 1));
    if (!match || isProcessAlive(Number(match[1]))) continue;
    await rm(join(folder, name), { force: true });
    removed.push(name);
  }
  return removed;
}
