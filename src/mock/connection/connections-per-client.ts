import type { Server } from 'node:http';
import type { Socket } from 'node:net';

/**
 * At most `max` connections open at once from one client address: a machine on the network (with --host 0.0.0.0)
 * that opens connection after connection, each held until its headers time out, would otherwise take every file
 * descriptor the mock has, and the developer's own requests with them. A connection past the limit is closed as it
 * arrives, before a byte is read; the client's others, and every other client, are served as before.
 */
export function limitConnectionsPerClient(server: Server, max: number): void {
  const open = new Map<string, number>();
  server.on('connection', (socket: Socket) => {
    const client = socket.remoteAddress ?? '';
    const count = open.get(client) ?? 0;
    if (count >= max) {
      socket.destroy();
      return;
    }
    open.set(client, count + 1);
    socket.once('close', () => {
      const left = (open.get(client) ?? 1) - 1;
      if (left === 0) open.delete(client);
      else open.set(client, left);
    });
  });
}
