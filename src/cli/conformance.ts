#!/usr/bin/env node
import { runConformanceCli } from './run-conformance-cli.js';

let finished = false;
// If the event loop ever empties before a verdict (a promise that never settles), CI must not read it as a pass.
process.once('beforeExit', () => {
  if (finished) return;
  process.stderr.write('conformance: the run stopped before reaching a verdict (a bug in the runner)\n');
  process.exitCode = 4;
});
runConformanceCli(process.argv.slice(2)).then((code) => {
  finished = true;
  process.exitCode = code;
});
