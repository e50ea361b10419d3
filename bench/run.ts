// npm run bench [-- --quick]: the mock against the bare node:http ceiling and Prism's CLI, on loopback, in one run.
// Prints the report and writes reports/bench.md and reports/bench.json.
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { cpus, release, totalmem, type } from 'node:os';
import { join } from 'node:path';
import { packageRoot } from '../src/contract/package-root.js';
import { type BenchSettings, FULL, QUICK } from './bench-settings.js';
import { evaluateTargets } from './evaluate-targets.js';
import { measureStartup } from './measure-startup.js';
import { measureStoreScale } from './measure-store-scale.js';
import { measureRunner } from './measure-runner.js';
import { measureThroughput } from './measure-throughput.js';
import { type BenchReport, renderReport } from './render-report.js';
import { type SpawnedServer, spawnServer } from './spawn-server.js';
import { TARGETS, type TargetId } from './targets.js';

const root = packageRoot();
const progress = (line: string) => process.stderr.write(`  ${line}\n`);

async function main(argv: readonly string[]): Promise<void> {
  const settings: BenchSettings = argv.includes('--quick') ? QUICK : FULL;
  const started = performance.now();
  progress(`${settings.mode} benchmark: start-up`);
  const startup = await measureStartup(settings, progress);

  progress('throughput');
  const servers: Partial<Record<TargetId, SpawnedServer>> = {};
  let throughput: Awaited<ReturnType<typeof measureThroughput>>;
  try {
    for (const id of ['ours', 'ceiling', 'prism'] as const) servers[id] = await spawnServer(TARGETS[id].command);
    throughput = await measureThroughput(servers as Record<TargetId, SpawnedServer>, settings, progress);
  } finally {
    await Promise.all(Object.values(servers).map((s) => s.stop()));
  }

  progress('stored pets');
  const scale = await measureStoreScale(settings, progress);

  progress('conformance runner');
  const runner = await measureRunner(settings, progress);

  const measurements = { throughput, scale, startup, runner };
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

async function versionOf(name: string): Promise<string> {
  const manifest = JSON.parse(await readFile(join(root, 'node_modules', name, 'package.json'), 'utf8')) as { version: string };
  return manifest.version;
}

main(process.argv.slice(2)).catch((error: unknown) => {
  process.stderr.write(`bench: ${(error as Error).stack ?? String(error)}\n`);
  process.exitCode = 1;
});
