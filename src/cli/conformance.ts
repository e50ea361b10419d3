#!/usr/bin/env node
import { runConformanceCli } from './run-conformance-cli.js';

runConformanceCli(process.argv.slice(2)).then((code) => {
  process.exitCode = code;
});
