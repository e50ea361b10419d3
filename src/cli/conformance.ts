#!/usr/bin/env node
// Loaded dynamically: a broken install (a module missing or half-built) is exit 4, a bug in the runner, never the
// exit 1 that CI would read as a failing server.
let finished = false;
// If the event loop ever empties before a verdict (a promise that never settles), CI must not read it as a pass.
process.once('beforeExit', () => {
  if (finished) return;
  process.stderr.write('conformance: the run stopped before reaching a verdict (a bug in the runner)\n');
  process.exitCode = 4;
});
// A reader that goes away (`--list | head`) is not the run's failure: what it did not read is dropped.
process.stdout.on('error', (error: NodeJS.ErrnoException) => {
  if (error.code !== 'EPIPE') throw error;
});
import('./run-conformance-cli.js')
  .then(({ runConformanceCli }) => runConformanceCli(process.argv.slice(2)))
  .then(
    (code) => {
      finished = true;
      process.exitCode = code;
    },
    (error: unknown) => {
      finished = true;
      process.stderr.write(
        `conformance: the runner could not start (a bug or a broken install): ${(error as Error)?.message ?? error}\n`,
      );
      process.exitCode = 4;
    },
  );
