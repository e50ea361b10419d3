// npm run bench [-- --quick] [-- --only throughput]: the mock against the bare node:http ceiling and Prism's CLI, on
// loopback, in one run, and a second resource (another contract's, on the mock's generic path) against the same
// ceiling. Prints the report and writes reports/bench.md and reports/bench.json (with --only throughput, the
// throughput tables and their targets, written to reports/bench-throughput.md and .json).
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { cpus, release, totalmem, type } from 'node:os';
import { join } from 'node:path';
import { packageRoot } from '../src/contract/package-root.js';
import { type BenchSettings, FULL, QUICK, resourceSettings } from './bench-settings.js';
import { evaluateTargets, evaluateThroughputTargets } from './evaluate-targets.js';
import { spawnLibraryMock } from './library-mock.js';
import { libraryScenarios } from './library-scenarios.js';
import { measureStartup } from './measure-startup.js';
import { measureStoreScale } from './measure-store-scale.js';
import { measureRunnerInItsOwnProcess } from './runner-process.js';
import { measureRunnerMemory } from './measure-runner-memory.js';
import { measureThroughput } from './measure-throughput.js';
import { type BenchReport, renderReport, renderResourceThroughput, renderTargets, renderThroughput } from './render-report.js';
import { SCENARIOS } from './scenarios.js';
import { type SpawnedServer, spawnServer } from './spawn-server.js';
import { TARGETS, type TargetId } from './targets.js';

const root = packageRoot();
const progress = (line: string) => process.stderr.write(`  ${line}\n`);

async function main(argv: readonly string[]): Promise<void> {
  const settings: BenchSettings = argv.includes('--quick') ? QUICK : FULL;
  const only = readOnly(argv);
  const started = performance.now();
  if (only === 'throughput') {
    progress(`${settings.mode} benchmark: throughput only`);
    const { throughput, resourceThroughput } = await throughputOnServers(settings);
    const targets = evaluateThroughputTargets(throughput, resourceThroughput);
    const markdown = [
      `# Benchmark (${settings.mode}, throughput only)`,
      '',
      `${new Date().toISOString()} · ${cpus()[0]?.model.trim() ?? 'unknown'}, ${cpus().length} cores · Node ${process.version}`,
      '',
      ...renderThroughput(throughput, settings),
      ...renderResourceThroughput(resourceThroughput, settings),
      ...renderTargets(targets),
      '',
    ].join('\n');
    await mkdir(join(root, 'reports'), { recursive: true });
    await writeFile(join(root, 'reports/bench-throughput.md'), markdown);
    await writeFile(
      join(root, 'reports/bench-throughput.json'),
      `${JSON.stringify({ settings, throughput, resourceThroughput, targets }, null, 2)}\n`,
    );
    process.stdout.write(`${markdown}\n`);
    progress(
      `done in ${Math.round((performance.now() - started) / 1000)} s: reports/bench-throughput.md, reports/bench-throughput.json`,
    );
    return;
  }
  progress(`${settings.mode} benchmark: start-up`);
  const startup = await measureStartup(settings, progress);

  progress('throughput');
  const { throughput, resourceThroughput } = await throughputOnServers(settings);

  progress('stored pets');
  const scale = await measureStoreScale(settings, progress);

  progress('conformance runner');
  const runner = await measureRunnerInItsOwnProcess(settings, progress);

  progress('conformance runner against 10 MiB answers');
  const runnerMemory = await measureRunnerMemory(settings, progress);

  const measurements = { throughput, resourceThroughput, scale, startup, runner, runnerMemory };
  const report: BenchReport = {
    date: new Date().toISOString(),
    machine: {
      cpu: cpus()[0]?.model.trim() ?? 'unknown',
      cores: cpus().length,
      memoryGb: Math.round(totalmem() / 1024 ** 3),
      os: `${type()} ${release()}`,
    },
    node: process.version,
    tools: {
      autocannon: await versionOf('autocannon'),
      '@stoplight/prism-cli': await versionOf('@stoplight/prism-cli'),
    },
    settings,
    ...measurements,
    targets: evaluateTargets(measurements),
  };
  const markdown = renderReport(report);
  await mkdir(join(root, 'reports'), { recursive: true });
  await writeFile(join(root, 'reports/bench.md'), markdown);
  await writeFile(join(root, 'reports/bench.json'), `${JSON.stringify(report, null, 2)}\n`);
  process.stdout.write(`${markdown}\n`);
  progress(`done in ${Math.round((performance.now() - started) / 1000)} s: reports/bench.md, reports/bench.json`);
}

// The three servers, each in its own process, for the throughput runs only, and the library contract's mock for
// the second resource's runs, against the same ceiling. The seeded mock starts while the others do (it takes the
// longest), and idles through the Pet Store's runs.
async function throughputOnServers(settings: BenchSettings) {
  const servers: Partial<Record<TargetId, SpawnedServer>> = {};
  const library = spawnLibraryMock(settings.seededAuthors);
  // Awaited below: a start that fails first must not end the process as an unhandled rejection.
  library.catch(() => {});
  try {
    for (const id of ['ours', 'ceiling', 'prism'] as const) servers[id] = await spawnServer(TARGETS[id].command);
    const seeded = await library;
    const throughput = await measureThroughput(servers, SCENARIOS, settings, progress);
    progress(`a second resource: ${settings.seededAuthors} authors seeded`);
    const resourceThroughput = await measureThroughput(
      { ours: seeded, ceiling: servers.ceiling },
      libraryScenarios(settings.seededAuthors),
      resourceSettings(settings),
      progress,
    );
    return { throughput, resourceThroughput };
  } finally {
    await Promise.all([
      ...Object.values(servers).map((s) => s.stop()),
      library.then(
        (s) => s.stop(),
        () => {},
      ),
    ]);
  }
}

/** `--only throughput`: the part to repeat while working on the mock's speed (a full run takes about 16 minutes). */
function readOnly(argv: readonly string[]): 'throughput' | undefined {
  const at = argv.indexOf('--only');
  if (at === -1) return undefined;
  const part = argv[at + 1];
  if (part !== 'throughput') throw new Error(`--only takes 'throughput' (got ${part ?? 'nothing'})`);
  return part;
}

async function versionOf(name: string): Promise<string> {
  const manifest = JSON.parse(await readFile(join(root, 'node_modules', name, 'package.json'), 'utf8')) as { version: string };
  return manifest.version;
}

main(process.argv.slice(2)).catch((error: unknown) => {
  process.stderr.write(`bench: ${(error as Error).stack ?? String(error)}\n`);
  process.exitCode = 1;
});
