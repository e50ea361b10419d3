#!/usr/bin/env node
// npm run conformance:mock: the whole suite against a fresh mock on a free port. Extra arguments go to conformance.
import { createMockServer } from '../mock/create-mock-server.js';
import { DEV_API_KEY } from '../mock/mock-options.js';
import { runConformanceCli } from './run-conformance-cli.js';

const mock = await createMockServer({ port: 0, host: '127.0.0.1' });
process.stdout.write(`petstore-mock on ${mock.url}\n`);
const code = await runConformanceCli(['--target', mock.url, ...process.argv.slice(2)], {
  env: { ...process.env, PETSTORE_API_KEY: process.env.PETSTORE_API_KEY ?? DEV_API_KEY },
  out: (text) => process.stdout.write(text),
  err: (text) => process.stderr.write(text),
  isTTY: process.stdout.isTTY === true,
});
await mock.close();
process.exitCode = code;
