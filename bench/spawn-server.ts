import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { request } from 'undici';

/** A server the benchmark started in its own process, answering on loopback. */
export interface SpawnedServer {
  readonly pid: number;
  /** http://127.0.0.1:<port>, without any base path. */
  readonly origin: string;
  /** From spawning the process to the first answered request (any status), in ms. */
  readonly startupMs: number;
  /** The process's resident memory now, from /proc (Linux); undefined elsewhere. */
  rssBytes(): number | undefined;
  /** The CPU time the process has used so far, user and system, ms, from /proc (Linux); undefined elsewhere. */
  cpuMs(): number | undefined;
  stop(): Promise<void>;
}

export interface ServerCommand {
  readonly args: readonly string[];
  /** A path answered once the server is ready, e.g. /v1/pets. */
  readonly probePath: string;
  readonly headers?: Readonly<Record<string, string>>;
  /** The longest the server may take to answer its first request. */
  readonly startTimeoutMs: number;
}

const running = new Set<ChildProcess>();

// Every child stops with the benchmark, however it ends.
process.once('exit', () => {
  for (const child of running) child.kill('SIGKILL');
});
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    for (const child of running) child.kill('SIGKILL');
    process.exit(130);
  });
}

/**
 * Spawns `node <args>` with the port appended (`{port}` in args is replaced), then asks the probe path every
 * 5 ms until something answers: the start-up time is what a client waiting for the server would see.
 */
export async function spawnServer(command: ServerCommand): Promise<SpawnedServer> {
  const port = await freePort();
  const origin = `http://127.0.0.1:${port}`;
  const args = command.args.map((a) => a.replaceAll('{port}', String(port)));
  const started = performance.now();
  const child = spawn(process.execPath, args, { stdio: ['ignore', 'ignore', 'pipe'] });
  running.add(child);
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => {
    stderr = (stderr + chunk.toString()).slice(-2000);
  });
  const exited = once(child, 'exit');
  try {
    await waitForAnswer(origin + command.probePath, command, started, child);
  } catch (error) {
    child.kill('SIGKILL');
    running.delete(child);
    throw new Error(`${args.join(' ')}: ${(error as Error).message}${stderr ? `\n${stderr}` : ''}`);
  }
  const startupMs = performance.now() - started;
  return {
    pid: child.pid as number,
    origin,
    startupMs,
    rssBytes: () => readRss(child.pid as number),
    cpuMs: () => readCpuMs(child.pid as number),
    stop: async () => {
      if (child.exitCode === null && child.signalCode === null) {
        child.kill('SIGTERM');
        const killer = setTimeout(() => child.kill('SIGKILL'), 2_000);
        await exited;
        clearTimeout(killer);
      }
      running.delete(child);
    },
  };
}

async function waitForAnswer(url: string, command: ServerCommand, started: number, child: ChildProcess): Promise<void> {
  while (performance.now() - started < command.startTimeoutMs) {
    if (child.exitCode !== null) throw new Error(`exited with code ${child.exitCode} before answering`);
    try {
      const { body } = await request(url, { headers: { ...command.headers }, headersTimeout: 2_000, bodyTimeout: 2_000 });
      await body.dump();
      return;
    } catch {
      await sleep(5);
    }
  }
  throw new Error(`no answer on ${url} within ${command.startTimeoutMs} ms`);
}

/** A port nothing listens on now, found by letting the OS pick one. */
async function freePort(): Promise<number> {
  const server = createServer();
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const address = server.address();
  server.close();
  await once(server, 'close');
  if (!address || typeof address !== 'object') throw new Error('could not find a free port');
  return address.port;
}

function readRss(pid: number): number | undefined {
  return procStatusBytes(pid, 'VmRSS');
}

// utime and stime, the 14th and 15th fields of /proc/<pid>/stat, in clock ticks: 100 a second on Linux (USER_HZ).
// Counted after the command name's closing parenthesis, since the name itself may hold spaces.
const TICKS_PER_SECOND = 100;

function readCpuMs(pid: number): number | undefined {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.split(' ') ?? [];
    const ticks = Number(fields[11]) + Number(fields[12]);
    return Number.isFinite(ticks) ? (ticks * 1000) / TICKS_PER_SECOND : undefined;
  } catch {
    return undefined;
  }
}

/** A memory figure of /proc/<pid>/status (VmRSS now, VmHWM the peak so far), in bytes; undefined off Linux. */
export function procStatusBytes(pid: number, field: 'VmRSS' | 'VmHWM'): number | undefined {
  try {
    const match = new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return match ? Number(match[1]) * 1024 : undefined;
  } catch {
    return undefined;
  }
}
