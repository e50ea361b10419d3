import { type FSWatcher, watch } from 'node:fs';
import { basename, dirname } from 'node:path';

// Editors save in bursts (truncate, write, rename): one reload per burst.
const SETTLE_MS = 150;

/**
 * Calls `changed(file)` once a burst of changes to a file has settled. The folder is watched, not the file: an
 * editor that saves by writing a new file and renaming it over the old one would end a watch on the file itself.
 * Returns the function that stops watching.
 */
export function watchFiles(files: readonly string[], changed: (file: string) => void): () => void {
  const timers = new Map<string, NodeJS.Timeout>();
  const watchers: FSWatcher[] = [];
  for (const folder of new Set(files.map((file) => dirname(file)))) {
    const watched = files.filter((file) => dirname(file) === folder);
    const watcher = watch(folder, (_, name) => {
      const file = watched.find((candidate) => basename(candidate) === String(name));
      if (file === undefined) return;
      clearTimeout(timers.get(file));
      timers.set(
        file,
        setTimeout(() => changed(file), SETTLE_MS),
      );
    });
    // A folder that goes away ends its watch; the mock keeps serving what it has.
    watcher.on('error', () => watcher.close());
    watchers.push(watcher);
  }
  return () => {
    for (const watcher of watchers) watcher.close();
    for (const timer of timers.values()) clearTimeout(timer);
  };
}
