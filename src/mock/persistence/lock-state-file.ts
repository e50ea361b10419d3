import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { AppError } from '../../contract/app-error.js';
import { isProcessAlive } from './is-process-alive.js';

export interface StateLock {
  readonly file: string;
  /** Removes the lock file, if it is still this lock's (a lock taken over as stale is not ours to remove). */
  release(): void;
}

/**
 * Takes `<file>.lock`, created exclusively (O_EXCL) and holding this process's id, so that two mocks never write
 * one state file: the last writer would silently erase the other's records. A lock whose process is gone (kill -9,
 * a crash) is stale and taken over. Throws AppError('state_locked') naming the process that holds it; two mocks in
 * one process are refused too, since they would overwrite each other just the same.
 */
export function lockStateFile(file: string): StateLock {
  const lockFile = `${file}.lock`;
  const token = `${process.pid}\n`;
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      writeFileSync(lockFile, token, { flag: 'wx' });
      return {
        file: lockFile,
        release: () => {
          if (readText(lockFile) === token) rmSync(lockFile, { force: true });
        },
      };
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code !== 'EEXIST') {
        throw new AppError(
          'state_invalid',
          `Failed to lock state file ${file}: cannot create ${lockFile}: ${code ?? String(error)}`,
        );
      }
    }
    const holder = Number.parseInt(readText(lockFile) ?? '', 10);
    if (isProcessAlive(holder)) {
      throw new AppError(
        'state_locked',
        `Failed to lock state file ${file}: another petstore-mock (PID ${holder}${holder === process.pid ? ', this process' : ''}) is using it: stop it, or give this one another --state-file (the lock is ${lockFile})`,
      );
    }
    // Stale: its process is gone (or it never got to write its id). Removed, then created again exclusively, so
    // of two mocks taking it over at once only one wins.
    rmSync(lockFile, { force: true });
  }
  throw new AppError(
    'state_locked',
    `Failed to lock state file ${file}: ${lockFile} keeps coming back: another process is taking it`,
  );
}

function readText(file: string): string | undefined {
  try {
    return readFileSync(file, 'utf8');
  } catch {
    return undefined;
  }
}
