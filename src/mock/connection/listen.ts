import type { Server } from 'node:http';
import { AppError } from '../../contract/app-error.js';

// Why a port or address cannot be opened, by the system's error code, in words a user can act on.
const LISTEN_FAILURES: Readonly<Record<string, (port: number, host: string) => string>> = {
  EADDRINUSE: (port) => `port ${port} is already in use: choose another with --port`,
  EACCES: (port) => `port ${port} needs privileges this process does not have: choose one above 1023 with --port`,
  EADDRNOTAVAIL: (_, host) => `${host} is not an address of this machine: choose another with --host`,
  ENOTFOUND: (_, host) => `${host} is not a known host name: choose another with --host`,
};

/** Resolves once the server listens; a port or address that cannot be opened is AppError('listen_failed'). */
export function listen(server: Server, port: number, host: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const fail = (error: NodeJS.ErrnoException) => {
      const explain = LISTEN_FAILURES[error.code ?? ''];
      reject(explain ? new AppError('listen_failed', explain(port, host)) : error);
    };
    server.once('error', fail);
    server.listen(port, host, () => {
      server.off('error', fail);
      resolve();
    });
  });
}
