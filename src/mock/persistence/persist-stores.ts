import type { SessionStores } from '../session-stores.js';
import { writeStateFile } from './state-file.js';

/** How often the stores are looked at for changes: writes are debounced to at most one per interval. */
const INTERVAL_MS = 500;
/**
 * After a write that took T ms, the next waits at least BACKOFF·T, so writing takes at most a fifth of the time
 * whatever the file's size (20 small creates on a 200 MB store rewrote it 20 times, 561 MB); changes meanwhile
 * are coalesced into that next write.
 */
const BACKOFF = 4;

export interface Persister {
  /** Writes now if anything changed since the last write (at shutdown). */
  stop(): Promise<void>;
}

/**
 * Keeps a state file up to date: after changes, at most once per INTERVAL_MS or BACKOFF times the last write's
 * cost, and once more at stop. A write that fails (a full disk) is reported and tried again at the next change;
 * it never stops the mock.
 */
export function persistStores(file: string, sessions: SessionStores, report: (problem: string) => void): Persister {
  let written = sessions.revision;
  let writing: Promise<void> | undefined;
  let timer: NodeJS.Timeout | undefined;
  let stopped = false;
  const write = () => {
    const revision = sessions.revision;
    const started = performance.now();
    writing = writeStateFile(file, sessions.stores(), sessions.singletonSections())
      .then(
        () => {
          written = revision;
        },
        (error: NodeJS.ErrnoException) => report(`could not write the state file ${file}: ${error.code ?? error.message}`),
      )
      .finally(() => {
        writing = undefined;
        schedule(Math.max(INTERVAL_MS, BACKOFF * (performance.now() - started)));
      });
    return writing;
  };
  const schedule = (delay: number) => {
    if (stopped) return;
    timer = setTimeout(() => (sessions.revision === written ? schedule(INTERVAL_MS) : write()), delay);
    timer.unref();
  };
  schedule(INTERVAL_MS);
  return {
    async stop() {
      stopped = true;
      clearTimeout(timer);
      await writing;
      if (sessions.revision !== written) await write();
    },
  };
}
