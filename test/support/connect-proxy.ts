import { createServer, type Server } from 'node:http';
import { connect, type Socket } from 'node:net';

/** An HTTP proxy that tunnels CONNECT requests (as HTTPS_PROXY is used), noting each tunnel's host:port in `tunnels`. */
export function connectProxy(tunnels: string[]): Server {
  const proxy = createServer();
  proxy.on('connect', (req, socket: Socket, head: Buffer) => {
    tunnels.push(req.url ?? '');
    const [host, port] = (req.url ?? '').split(':');
    const upstream = connect(Number(port), host, () => {
      socket.write('HTTP/1.1 200 Connection Established\r\n\r\n');
      upstream.write(head);
      upstream.pipe(socket).pipe(upstream);
    });
    upstream.on('error', () => socket.destroy());
    socket.on('error', () => upstream.destroy());
  });
  return proxy;
}
