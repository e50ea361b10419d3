import { type ChildProcess, spawn } from 'node:child_process';
import { join } from 'node:path';
import { packageRoot } from '../../src/contract/package-root.js';

export interface Finished {
  readonly code: number | null;
  /** The signal that ended it (SIGKILL from an out-of-memory killer, say), null when it exited by itself. */
  readonly signal: NodeJS.Signals | null;
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
  const exited = new Promise<Finished>((resolve) =>
    child.on('close', (code, signal) => resolve({ code, signal, stdout, stderr })),
  );
  const waitFor = (pattern: RegExp) =>
    new Promise<RegExpMatchArray>((resolve, reject) => {
      const check = () => {
        const match = stdout.match(pattern);
        if (match) resolve(match);
      };
      watchers.push(check);
      check();
      // How it ended, so that a start that ends with no output says whether it was killed or gave up by itself.
      exited.then(({ code, signal }) =>
        reject(new Error(`exited (code ${code}, signal ${signal}) before printing ${pattern}: ${stdout}${stderr}`)),
      );
    });
  return { child, output: () => stdout, waitFor, exited };
}
