import { type ChildProcess, spawn } from 'node:child_process';
import { join } from 'node:path';
import { packageRoot } from '../../src/contract/package-root.js';

export interface Finished {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

export interface Running {
  readonly child: ChildProcess;
  readonly output: () => string;
  /** Resolves with the first match of `pattern` in stdout. */
  readonly waitFor: (pattern: RegExp) => Promise<RegExpMatchArray>;
  readonly exited: Promise<Finished>;
}

/** Runs a built bin (dist/src/cli/NAME.js) with node, as `npx NAME` would. */
export function spawnBin(name: string, args: readonly string[], env: Record<string, string> = {}, cwd?: string): Running {
  const child = spawn(process.execPath, [join(packageRoot(), 'dist', 'src', 'cli', `${name}.js`), ...args], {
    cwd,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  const watchers: (() => void)[] = [];
  child.stdout?.on('data', (chunk: Buffer) => {
    stdout += chunk.toString();
    for (const watcher of watchers) watcher();
  });
  child.stderr?.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  const exited = new Promise<Finished>((resolve) => child.on('close', (code) => resolve({ code, stdout, stderr })));
  const waitFor = (pattern: RegExp) =>
    new Promise<RegExpMatchArray>((resolve, reject) => {
      const check = () => {
        const match = stdout.match(pattern);
        if (match) resolve(match);
      };
      watchers.push(check);
      check();
      exited.then(() => reject(new Error(`exited before printing ${pattern}: ${stdout}${stderr}`)));
    });
  return { child, output: () => stdout, waitFor, exited };
}
