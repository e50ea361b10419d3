import { type FSWatcher, watch } from 'node:fs';
import { basename, dirname } from 'node:path';

// Editors save in bursts (truncate, write, rename), and some users save on every keystroke: one reload per burst.
const SETTLE_MS = 200;

/**
 * Calls `changed(file)` once a burst of changes to a file has settled, and never twice at once for one file: a
 * burst that settles while the previous reload still runs is reloaded once more after it, so the last save is
 * always the one served and two large compilations never hold memory together. The folder is watched, not the
 * file: an editor that saves by writing a new file and renaming it over the old one would end a watch on the file
 * itself. Returns the function that stops watching.
 */
export function watchFiles(files: readonly string[], changed: (file: string) => Promise<void>): () => void {
  const timers = new Map<string, NodeJS.Timeout>();
  const running = new Map<string, { again: boolean }>();
  const watchers: FSWatcher[] = [];
  let stopped = false;
  const run = (file: string) => {
    const current = running.get(file);
    if (current) {
      current.again = true;
      return;
    }
    const state = { again: false };
    running.set(file, state);
    void changed(file).finally(() => {
      running.delete(file);
      if (state.again && !stopped) run(file);
    });
  };
  for (const folder of new Set(files.map((file) => dirname(file)))) {
    const watched = files.filter((file) => dirname(file) === folder);
    const watcher = watch(folder, (_, name) => {
      const file = watched.find((candidate) => basename(candidate) === String(name));
      if (file === undefined) return;
      clearTimeout(timers.get(file));
      timers.set(
        file,
        setTimeout(() => run(file), SETTLE_MS),
      );
    });
    // A folder that goes away ends its watch; the mock keeps serving what it has.
    watcher.on('error', () => watcher.close());
    watchers.push(watcher);
  }
  return () => {
    stopped = true;
    for (const watcher of watchers) watcher.close();
    for (const timer of timers.values()) clearTimeout(timer);
  };
}
