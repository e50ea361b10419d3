import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { packageRoot } from '../src/contract/package-root.js';
import type { BenchSettings } from './bench-settings.js';
import { procStatusBytes, spawnServer } from './spawn-server.js';

export interface RunnerMemoryRow {
  /** What every GET /v1/pets answered: 10 MiB of pets, or of empty objects. */
  readonly shape: 'pets' | 'empties';
  readonly concurrency: number;
  /** The CLI's options besides --target, --concurrency and --report-dir. */
  readonly options: readonly string[];
  /** The CLI process's peak resident set (VmHWM), MB. */
  readonly peakRssMb: number;
  readonly wallSeconds: number;
  readonly exitCode: number | null;
}

const CONCURRENCY = 16;
// Quick: the two shipped scenarios that capture a list before creating (each case holds a capture while others
// run), without the generated phase; full: the default run.
const QUICK_OPTIONS = ['--no-generate', '--tags', 'limit'];

/** The CLI as CI runs it, against a target whose every list is 10 MiB: its peak RSS must stay under 300 MB. */
export async function measureRunnerMemory(settings: BenchSettings, progress: (line: string) => void): Promise<RunnerMemoryRow[]> {
  const rows: RunnerMemoryRow[] = [];
  for (const shape of ['pets', 'empties'] as const) {
    const target = await spawnServer({
      args: [join(packageRoot(), 'dist/bench/large-answers-target.js'), shape, '{port}'],
      probePath: '/v1/pets/1',
      startTimeoutMs: 15_000,
    });
    try {
      const options = settings.mode === 'quick' ? QUICK_OPTIONS : [];
      const row = await runCli(`${target.origin}/v1`, shape, options);
      progress(`${shape}: peak RSS ${row.peakRssMb.toFixed(0)} MB in ${row.wallSeconds.toFixed(1)} s (exit ${row.exitCode})`);
      rows.push(row);
    } finally {
      await target.stop();
    }
  }
  return rows;
}

async function runCli(target: string, shape: RunnerMemoryRow['shape'], options: readonly string[]): Promise<RunnerMemoryRow> {
  const reportDir = await mkdtemp(join(tmpdir(), 'bench-memory-'));
  const started = performance.now();
  const child = spawn(
    process.execPath,
    [
      join(packageRoot(), 'dist/src/cli/conformance.js'),
      '--target',
      target,
      '-c',
      String(CONCURRENCY),
      '--report-dir',
      reportDir,
      ...options,
    ],
    { env: { ...process.env, PETSTORE_API_KEY: 'bench-key-0123456789', GITHUB_STEP_SUMMARY: '' }, stdio: 'ignore' },
  );
  // VmHWM is the peak so far: the last reading before the process ends is its peak, give or take the last 20 ms.
  let peak = 0;
  const poll = setInterval(() => {
    peak = Math.max(peak, procStatusBytes(child.pid as number, 'VmHWM') ?? 0);
  }, 20);
  const [exitCode] = (await once(child, 'exit')) as [number | null];
  clearInterval(poll);
  return {
    shape,
    concurrency: CONCURRENCY,
    options,
    peakRssMb: peak / 1e6,
    wallSeconds: (performance.now() - started) / 1000,
    exitCode,
  };
}
