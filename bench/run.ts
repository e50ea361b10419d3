// npm run bench [-- --quick] [-- --only throughput|runner]: the mock against the bare node:http ceiling and Prism's CLI, on
// loopback, in one run, and a second resource (another contract's, on the mock's generic path) against the same
// ceiling. Prints the report and writes reports/bench.md and reports/bench.json (with --only throughput, the
// throughput tables and their targets, written to reports/bench-throughput.md and .json; likewise --only runner).
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { cpus, release, totalmem, type } from 'node:os';
import { join } from 'node:path';
import { packageRoot } from '../src/contract/package-root.js';
import { type BenchSettings, FULL, QUICK, resourceSettings } from './bench-settings.js';
import { evaluateRunnerTargets, evaluateTargets, evaluateThroughputTargets } from './evaluate-targets.js';
import { spawnLibraryMock } from './library-mock.js';
import { libraryScenarios } from './library-scenarios.js';
import { measureStartup } from './measure-startup.js';
import { measureStoreScale } from './measure-store-scale.js';
import { measureRunnerInItsOwnProcess } from './runner-process.js';
import { measureRunnerMemory } from './measure-runner-memory.js';
import { measureThroughput } from './measure-throughput.js';
import type { RunnerRow } from './measure-runner.js';
import {
  type BenchReport,
  renderReport,
  renderResourceThroughput,
  renderRunner,
  renderTargets,
  renderThroughput,
} from './render-report.js';
import { SCENARIOS } from './scenarios.js';
import { type SpawnedServer, spawnServer } from './spawn-server.js';
import { LIBRARY_BASE_PATH, TARGETS, type TargetId } from './targets.js';

const root = packageRoot();
const progress = (line: string) => process.stderr.write(`  ${line}\n`);

async function main(argv: readonly string[]): Promise<void> {
  const settings: BenchSettings = argv.includes('--quick') ? QUICK : FULL;
  const only = readOnly(argv);
  const started = performance.now();
  if (only !== undefined) {
    progress(`${settings.mode} benchmark: ${only} only`);
    const part =
      only === 'throughput' ? await throughputPart(settings) : runnerPart(await measureRunnerInItsOwnProcess(settings, progress));
    const markdown = [
      `# Benchmark (${settings.mode}, ${only} only)`,
      '',
      `${new Date().toISOString()} · ${cpus()[0]?.model.trim() ?? 'unknown'}, ${cpus().length} cores · Node ${process.version}`,
      '',
      ...part.lines,
      ...renderTargets(part.targets),
      '',
    ].join('\n');
    await mkdir(join(root, 'reports'), { recursive: true });
    await writeFile(join(root, `reports/bench-${only}.md`), markdown);
    await writeFile(
      join(root, `reports/bench-${only}.json`),
      `${JSON.stringify({ settings, [only]: part.measured, targets: part.targets }, null, 2)}\n`,
    );
    process.stdout.write(`${markdown}\n`);
    progress(
      `done in ${Math.round((performance.now() - started) / 1000)} s: reports/bench-${only}.md, reports/bench-${only}.json`,
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

async function throughputPart(settings: BenchSettings) {
  const measured = await throughputOnServers(settings);
  return {
    measured,
    lines: [
      ...renderThroughput(measured.throughput, settings),
      ...renderResourceThroughput(measured.resourceThroughput, settings),
    ],
    targets: evaluateThroughputTargets(measured.throughput, measured.resourceThroughput),
  };
}

function runnerPart(runner: RunnerRow) {
  return { measured: runner, lines: renderRunner(runner), targets: evaluateRunnerTargets(runner) };
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
      { ours: LIBRARY_BASE_PATH },
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

const PARTS = ['throughput', 'runner'] as const;

/**
 * `--only throughput` or `--only runner`: the part to repeat while working on the mock's or the runner's speed (a
 * full run takes about 16 minutes).
 */
function readOnly(argv: readonly string[]): (typeof PARTS)[number] | undefined {
  const at = argv.indexOf('--only');
  if (at === -1) return undefined;
  const part = PARTS.find((p) => p === argv[at + 1]);
  if (part === undefined) throw new Error(`--only takes ${PARTS.join(' or ')} (got ${argv[at + 1] ?? 'nothing'})`);
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
