import { createServer } from 'node:net';

/** A port on 127.0.0.1 that nothing listens on: the system's pick, closed again at once. */
export function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}
