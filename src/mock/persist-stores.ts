import type { SessionStores } from './session-stores.js';
import { writeStateFile } from './state-file.js';

/** How often the stores are looked at for changes: writes are debounced to at most one per interval. */
const INTERVAL_MS = 500;

export interface Persister {
  /** Writes now if anything changed since the last write (at shutdown). */
  stop(): Promise<void>;
}

/**
 * Keeps a state file up to date: after changes, at most once per INTERVAL_MS, and once more at stop. A write that
 * fails (a full disk) is reported and tried again at the next change; it never stops the mock.
 */
export function persistStores(file: string, sessions: SessionStores, report: (problem: string) => void): Persister {
  let written = sessions.revision;
  let writing: Promise<void> | undefined;
  const writeIfChanged = () => {
    if (writing || sessions.revision === written) return writing;
    const revision = sessions.revision;
    writing = writeStateFile(file, sessions.jsonChunks())
      .then(
        () => {
          written = revision;
        },
        (error: NodeJS.ErrnoException) => report(`could not write the state file ${file}: ${error.code ?? error.message}`),
      )
      .finally(() => {
        writing = undefined;
      });
    return writing;
  };
  const timer = setInterval(writeIfChanged, INTERVAL_MS);
  timer.unref();
  return {
    async stop() {
      clearInterval(timer);
      await writing;
      await writeIfChanged();
    },
  };
}
