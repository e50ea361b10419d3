// A target that sends what a runner must survive: every GET /v1/pets is answered with 10 MiB of one shape (a list
// of pets, or of empty objects), the other operations with small valid answers. Run as its own process:
// `node dist/bench/large-answers-target.js <pets|empties> <port>`.
import { createServer } from 'node:http';

const ANSWER_BYTES = 10 * 1024 * 1024 - 1024;
const shape = process.argv[2] === 'empties' ? 'empties' : 'pets';

function largeList(): Buffer {
  const items: string[] = [];
  let size = 2;
  for (let id = 1; ; id++) {
    const item = shape === 'empties' ? '{}' : JSON.stringify({ id, name: `Pet ${id} of a long list`, status: 'available' });
    if (size + item.length + 1 > ANSWER_BYTES) break;
    items.push(item);
    size += item.length + 1;
  }
  return Buffer.from(`[${items.join(',')}]`);
}

const LIST = largeList();
const JSON_TYPE = { 'content-type': 'application/json' };
let nextId = 1_000_000;

const server = createServer((req, res) => {
  req.resume();
  req.on('end', () => {
    const path = new URL(req.url ?? '/', 'http://target').pathname;
    if (req.method === 'GET' && path === '/v1/pets') return res.writeHead(200, JSON_TYPE).end(LIST);
    if (req.method === 'POST' && path === '/v1/pets') {
      return res.writeHead(201, JSON_TYPE).end(JSON.stringify({ id: nextId++, name: 'Rex', status: 'available' }));
    }
    const pet = /^\/v1\/pets\/(\d+)$/.exec(path);
    if (pet) return res.writeHead(200, JSON_TYPE).end(JSON.stringify({ id: Number(pet[1]), name: 'Rex', status: 'available' }));
    res.writeHead(404, JSON_TYPE).end('{"code":"not_found","message":"no such resource","status":404}');
  });
});
server.listen(Number(process.argv[3] ?? 0), '127.0.0.1', () => {
  const address = server.address();
  if (address && typeof address === 'object') process.stdout.write(`Base URL: http://127.0.0.1:${address.port}\n`);
});
process.once('SIGTERM', () => server.close(() => process.exit(0)));
