// node --expose-gc dist/bench/measure-reload-memory.js [--copies 0] [--reloads 100]: starts the mock in this
// process with --watch on a temporary copy of the contract (with --copies N, the pet paths copied N times: see
// large-contract.ts), saves it `reloads` times, each save waiting for the mock's reload notice, and prints RSS and
// heap after a forced GC at start and every 10 reloads. Memory that grows with the reloads is a leak (issue 23).
// Meanwhile the event loop's delay is sampled: its longest over the last 10 reloads is the longest a request
// waited for the main thread (a CPU shared with other work adds to it).
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { createMockServer } from '../src/mock/create-mock-server.js';
import { DEV_API_KEY } from '../src/mock/mock-options.js';
import { largeContract } from './large-contract.js';

function option(argv: readonly string[], name: string, fallback: number): number {
  const at = argv.indexOf(name);
  return at === -1 ? fallback : Number(argv[at + 1]);
}

function megabytes(bytes: number): string {
  return (bytes / 1024 / 1024).toFixed(1);
}

async function main(argv: readonly string[]): Promise<void> {
  const collect = (globalThis as { gc?: () => void }).gc;
  if (!collect) throw new Error('run with node --expose-gc');
  const copies = option(argv, '--copies', 0);
  const reloads = option(argv, '--reloads', 100);
  const dir = await mkdtemp(join(tmpdir(), 'reload-memory-'));
  const file = join(dir, 'openapi.yaml');
  const contract = await largeContract(copies);
  await writeFile(file, contract);
  let waiting: ((line: string) => void) | undefined;
  const mock = await createMockServer({
    contract: file,
    port: 0,
    watch: true,
    fixtures: false,
    notice: (line) => waiting?.(line),
  });
  const delay = monitorEventLoopDelay({ resolution: 5 });
  const measure = (label: string) => {
    delay.disable();
    collect();
    const { rss, heapUsed } = process.memoryUsage();
    const stall = Math.round(delay.count > 0 ? delay.max / 1e6 : 0);
    process.stdout.write(
      `${label}\trss ${megabytes(rss)} MB\theap ${megabytes(heapUsed)} MB\tlongest event-loop delay ${stall} ms\n`,
    );
    delay.reset();
    delay.enable();
  };
  try {
    // The copies are answered by Prism, which the mock loads after it starts listening (a second or more of module
    // loading on this thread): waited for here, so that it is not counted as a reload's delay.
    if (copies > 0) await fetch(`${mock.url}/copy1/pets`, { headers: { authorization: `Bearer ${DEV_API_KEY}` } });
    measure('start');
    for (let reload = 1; reload <= reloads; reload++) {
      const noticed = new Promise<string>((resolve) => {
        waiting = (line) => {
          if (!line.includes('compiling')) resolve(line);
        };
      });
      // Each save differs by its version only: made by replacing it, not by writing the YAML again on this thread.
      const text = contract.replace(/^ {2}version: 1\.0\.0$/m, `  version: 1.0.${reload}`);
      const started = performance.now();
      await writeFile(file, text);
      const line = await noticed;
      if (!line.includes('reloaded')) throw new Error(line);
      if (reload % 10 === 0) measure(`reload ${reload} (${Math.round(performance.now() - started)} ms)`);
    }
  } finally {
    await mock.close();
    await rm(dir, { recursive: true, force: true });
  }
}

main(process.argv.slice(2)).catch((error: Error) => {
  process.stderr.write(`${error.message}\n`);
  process.exitCode = 1;
});
