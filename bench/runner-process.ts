// The runner's measurement in a process of its own, as a CI run has: not in the bench process, whose heap the
// throughput and store-size phases before it have grown (in it the runner measured about a third slower).
// Run as `node dist/bench/runner-process.js <settings JSON>`: progress on stderr, the RunnerRow as JSON on stdout.
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { BenchSettings } from './bench-settings.js';
import { measureRunner, type RunnerRow } from './measure-runner.js';

const self = fileURLToPath(import.meta.url);

if (process.argv[1] === self) {
  const settings = JSON.parse(process.argv[2] as string) as BenchSettings;
  const row = await measureRunner(settings, (line) => process.stderr.write(`${line}\n`));
  process.stdout.write(JSON.stringify(row));
}

export async function measureRunnerInItsOwnProcess(
  settings: BenchSettings,
  progress: (line: string) => void,
): Promise<RunnerRow> {
  const child = spawn(process.execPath, [join(self, '..', 'runner-process.js'), JSON.stringify(settings)], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
    out += chunk;
  });
  let pending = '';
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
    const lines = (pending + chunk).split('\n');
    pending = lines.pop() ?? '';
    for (const line of lines) progress(line);
  });
  const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
  if (code !== 0) throw new Error(`the runner's measurement exited ${code}: ${pending}`);
  return JSON.parse(out) as RunnerRow;
}
