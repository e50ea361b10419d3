// The Node.js ceiling on this machine: a bare node:http server answering every request with the same small JSON
// array. Run as its own process: `node dist/bench/ceiling-server.js <port>`.
import { createServer } from 'node:http';

const BODY = Buffer.from(
  '[{"id":1,"name":"Rex","categoryId":1,"status":"available"},{"id":2,"name":"Whiskers","categoryId":2,"status":"available"}]',
);
const HEADERS = { 'Content-Type': 'application/json', 'Content-Length': BODY.length };

const server = createServer((req, res) => {
  // A POST body is read to its end, as any real server must, before the answer.
  req.resume();
  req.on('end', () => {
    res.writeHead(200, HEADERS);
    res.end(BODY);
  });
});
server.keepAliveTimeout = 5_000;
server.listen(Number(process.argv[2] ?? 0), '127.0.0.1', () => {
  const address = server.address();
  if (address && typeof address === 'object') process.stdout.write(`Base URL: http://127.0.0.1:${address.port}\n`);
});
process.once('SIGTERM', () => server.close(() => process.exit(0)));
