#!/usr/bin/env node
import { runMockCli } from './run-mock-cli.js';

runMockCli(process.argv.slice(2)).then((code) => {
  if (code !== undefined) process.exitCode = code;
});
