import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { request } from 'undici';

export interface ProxyRequest {
  readonly method: string;
  /** Path and query as the client sent them, e.g. /v1/pets?limit=5. */
  readonly url: string;
  readonly headers: Record<string, string>;
  readonly body: string;
  /** Which client connection carried it: 1 for the first, 2 for the next... */
  readonly connection: number;
}

export interface ProxyResponse {
  readonly status: number;
  readonly headers: Record<string, string>;
  readonly body: string;
  /**
   * How it goes on the wire: chunked instead of Content-Length, and/or the connection closed after it; `broken`
   * writes the message by hand, wrong in one way (a Content-Length larger than the body sent, a chunk size that is
   * not hexadecimal, a body after a 204 counted in its Content-Length, a body after an answer that can have none
   * and no length to count it: `stray-bytes`), then closes the connection; `drop` closes it without an answer.
   */
  readonly wire?: {
    readonly chunked?: boolean;
    readonly close?: boolean;
    readonly broken?: Broken;
  };
}

type Broken = 'truncated' | 'bad-chunk' | 'no-content-body' | 'stray-bytes' | 'drop';

/** One way of bending the real mock's behaviour: rewrite the request, answer it directly, or rewrite the answer. */
export interface Mutation {
  readonly request?: (req: ProxyRequest) => ProxyRequest | ProxyResponse;
  readonly response?: (res: ProxyResponse, req: ProxyRequest) => ProxyResponse | Promise<ProxyResponse>;
}

export interface Proxy {
  /** The base URL with the upstream's base path, e.g. http://127.0.0.1:40123/v1. */
  readonly url: string;
  close(): Promise<void>;
}

// Hop-by-hop and length headers are recomputed for the rewritten message.
const DROPPED = new Set(['content-length', 'connection', 'keep-alive', 'transfer-encoding']);

/** A test-only HTTP proxy on 127.0.0.1:0 in front of a real mock (`upstream` is the mock's base URL). */
export async function startMutatingProxy(upstream: string, mutation: Mutation): Promise<Proxy> {
  const upstreamUrl = new URL(upstream);
  const connections = new WeakMap<object, number>();
  const server = createServer(async (req, res) => {
    try {
      const incoming: ProxyRequest = {
        method: req.method ?? 'GET',
        url: req.url ?? '/',
        headers: plainHeaders(req.headers),
        body: await readAll(req),
        connection: nextId(connections, req.socket),
      };
      const rewritten = mutation.request ? mutation.request(incoming) : incoming;
      let answer: ProxyResponse;
      let upstreamLength: string | undefined;
      if ('status' in rewritten) answer = rewritten;
      else {
        const headers = Object.fromEntries(
          Object.entries(rewritten.headers).filter(([name]) => !DROPPED.has(name) && name !== 'host'),
        );
        const reply = await request(`${upstreamUrl.origin}${rewritten.url}`, {
          method: rewritten.method as 'GET',
          headers,
          body: rewritten.method === 'GET' ? undefined : rewritten.body,
        });
        answer = { status: reply.statusCode, headers: plainHeaders(reply.headers), body: await reply.body.text() };
        upstreamLength = answer.headers['content-length'];
      }
      if (mutation.response) answer = await mutation.response(answer, incoming);
      const headers = Object.fromEntries(Object.entries(answer.headers).filter(([name]) => !DROPPED.has(name)));
      if (answer.wire?.broken) return writeBroken(res, answer, headers, answer.wire.broken);
      if (answer.wire?.close) headers.connection = 'close';
      // The headers as given: a Date is sent only when the answer has one (the mock's does).
      res.sendDate = 'date' in headers;
      if (!answer.wire?.chunked) {
        // A HEAD's Content-Length would be the GET's (RFC 9110 §8.6), which a mutation of GET bodies changes: it goes
        // without one (HTTP lets it), unless the mutation sets one of its own.
        const set = answer.headers['content-length'];
        const length = incoming.method !== 'HEAD' ? Buffer.byteLength(answer.body) : set !== upstreamLength ? set : undefined;
        res.writeHead(answer.status, { ...headers, ...(length === undefined ? {} : { 'content-length': length }) });
        res.end(answer.body);
        return;
      }
      // Without a Content-Length, node sends the body chunked: here in two pieces, split inside the JSON.
      res.writeHead(answer.status, headers);
      const half = Math.floor(answer.body.length / 2);
      res.write(answer.body.slice(0, half));
      res.end(answer.body.slice(half));
    } catch (error) {
      if (!res.headersSent) res.writeHead(502, { 'content-type': 'text/plain' });
      res.end(`proxy failed: ${(error as Error).message}`);
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}${upstreamUrl.pathname}`,
    close: () =>
      new Promise((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

/** The answer written straight to the socket, past node's own framing, wrong in the way `how` names. */
function writeBroken(res: ServerResponse, answer: ProxyResponse, headers: Record<string, string>, how: Broken): void {
  if (how === 'drop') {
    res.socket?.destroy();
    return;
  }
  const body = Buffer.from(answer.body);
  const framing =
    how === 'bad-chunk' ? 'transfer-encoding: chunked' : `content-length: ${body.length + (how === 'truncated' ? 100 : 0)}`;
  const head = [
    `HTTP/1.1 ${answer.status} X`,
    ...Object.entries(headers).map(([n, v]) => `${n}: ${v}`),
    ...(how === 'stray-bytes' ? [] : [framing]),
    'connection: close',
  ];
  const payload = how !== 'bad-chunk' ? body : Buffer.concat([Buffer.from('zz\r\n'), body, Buffer.from('\r\n0\r\n\r\n')]);
  const header = Buffer.from(`${head.join('\r\n')}\r\n\r\n`);
  if (how !== 'no-content-body') {
    res.socket?.end(Buffer.concat([header, payload]));
    return;
  }
  // The body a moment after the 204's header section: a client has taken the 204 whole before it comes.
  res.socket?.write(header);
  setTimeout(() => res.socket?.end(payload), 50);
}

let socketCount = 0;

function nextId(ids: WeakMap<object, number>, socket: object): number {
  const known = ids.get(socket);
  if (known !== undefined && known > 0) return known;
  ids.set(socket, ++socketCount);
  return socketCount;
}

function plainHeaders(
  headers: IncomingMessage['headers'] | Record<string, string | string[] | undefined>,
): Record<string, string> {
  const plain: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value !== undefined) plain[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : value;
  }
  return plain;
}

async function readAll(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}
