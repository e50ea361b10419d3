// The Node.js ceiling on this machine: a bare node:http server answering every request with a fixed small JSON
// body and the status the mock answers for its method: one author under /authors (bench/library-scenarios.ts),
// a book under .../books, the same array anywhere else, nothing to a DELETE. Run as its own process:
// `node dist/bench/ceiling-server.js <port>`.
import { createServer, type OutgoingHttpHeaders } from 'node:http';

interface Answer {
  readonly status: number;
  readonly headers: OutgoingHttpHeaders;
  readonly body: Buffer;
}

function json(status: number, text: string, location?: string): Answer {
  const body = Buffer.from(text);
  const headers = { 'Content-Type': 'application/json', 'Content-Length': body.length };
  return { status, headers: location ? { ...headers, Location: location } : headers, body };
}

const LIST =
  '[{"id":1,"name":"Rex","categoryId":1,"status":"available"},{"id":2,"name":"Whiskers","categoryId":2,"status":"available"}]';
const AUTHOR = '{"id":"00000000-0000-4000-8000-000000000001","name":"Ada Lovelace","country":"GB","born":1815}';
const BOOK =
  '{"isbn":"978-0-00-000001-1","title":"Notes on the Analytical Engine","genre":"essay","addedAt":"2026-11-27T12:00:00.000Z"}';
const NO_CONTENT: Answer = { status: 204, headers: {}, body: Buffer.alloc(0) };

type Answers = Readonly<Record<'read' | 'create', Answer>>;
const ANSWERS: Readonly<Record<'list' | 'author' | 'book', Answers>> = {
  list: { read: json(200, LIST), create: json(201, LIST, '/pets/1') },
  author: { read: json(200, AUTHOR), create: json(201, AUTHOR, '/authors/00000000-0000-4000-8000-000000000001') },
  book: { read: json(200, BOOK), create: json(201, BOOK, '/authors/00000000-0000-4000-8000-000000000001/books/1') },
};

function answerTo(method: string | undefined, url = ''): Answer {
  if (method === 'DELETE') return NO_CONTENT;
  const answers = url.startsWith('/authors') ? (url.includes('/books') ? ANSWERS.book : ANSWERS.author) : ANSWERS.list;
  return method === 'POST' ? answers.create : answers.read;
}

const server = createServer((req, res) => {
  // A body is read to its end, as any real server must, before the answer.
  req.resume();
  req.on('end', () => {
    const answer = answerTo(req.method, req.url);
    res.writeHead(answer.status, answer.headers);
    res.end(answer.body);
  });
});
server.keepAliveTimeout = 5_000;
server.listen(Number(process.argv[2] ?? 0), '127.0.0.1', () => {
  const address = server.address();
  if (address && typeof address === 'object') process.stdout.write(`Base URL: http://127.0.0.1:${address.port}\n`);
});
process.once('SIGTERM', () => server.close(() => process.exit(0)));
