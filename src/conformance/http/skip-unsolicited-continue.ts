import { maxHeaderSize } from 'node:http';
import type { Socket } from 'node:net';
import { buildConnector } from 'undici';

// A request line as undici writes it: the start of a request's header block, never a body chunk of ours.
const REQUEST_LINE = /^[A-Z]+ \S+ HTTP\/1\.1\r\n/;
const CONTINUE = Buffer.from('HTTP/1.1 100 ', 'latin1');
const STATUS_LINE_LENGTH = CONTINUE.length;

/**
 * RFC 9110 §15.2: "A client MUST be able to parse one or more 1xx responses received prior to a final response,
 * even if the client does not expect one." undici accepts 102 and 103 but drops the connection on a 100 Continue
 * it did not ask for, so this connector takes such 100 answers out of the bytes before undici's parser sees them.
 * Only where a response starts: after a request line is written and before the final status line arrives (undici
 * sends the next request on a connection only after the previous answer ended).
 */
export function skipUnsolicitedContinue(tls: buildConnector.BuildOptions): buildConnector.connector {
  const connect = buildConnector(tls);
  return (options, callback) =>
    connect(options, (error, socket) => (error ? callback(error, null) : callback(null, patch(socket as Socket))));
}

function patch(socket: Socket): Socket {
  let awaitingStatus = false;
  let held: Buffer | undefined;
  const write = socket.write.bind(socket) as (...args: unknown[]) => boolean;
  socket.write = ((chunk: unknown, ...rest: unknown[]) => {
    // A body chunk rarely starts with a capital letter: most are not searched at all.
    if (typeof chunk === 'string' && isCapital(chunk.charCodeAt(0)) && REQUEST_LINE.test(chunk)) awaitingStatus = true;
    return write(chunk, ...rest);
  }) as Socket['write'];
  const read = socket.read.bind(socket);
  socket.read = ((size?: number) => {
    if (!awaitingStatus) return read(size);
    const fresh = read(size) as Buffer | null;
    let chunk = held && fresh ? Buffer.concat([held, fresh]) : (held ?? fresh);
    held = undefined;
    while (chunk && chunk.length > 0) {
      if (chunk.length < STATUS_LINE_LENGTH) break;
      if (!isContinue(chunk)) {
        awaitingStatus = false;
        return chunk;
      }
      const end = chunk.indexOf('\r\n\r\n');
      if (end === -1) break;
      chunk = chunk.subarray(end + 4);
    }
    // Too few bytes to tell yet: keep them until more arrive (their arrival makes the socket readable again).
    // Held here, a head is out of reach of undici's own limit on a head (the same size), so it is held to it too:
    // a 100 Continue whose header block never ends would otherwise grow without bound.
    if (chunk && chunk.length > maxHeaderSize) {
      socket.destroy(continueOverflow());
      return null;
    }
    if (chunk && chunk.length > 0) held = chunk;
    return null;
  }) as Socket['read'];
  return socket;
}

function isCapital(code: number): boolean {
  return code >= 65 && code <= 90;
}

/** `HTTP/1.0 100` or `HTTP/1.1 100`, then a space or the end of the line: compared byte by byte, nothing decoded. */
function isContinue(chunk: Buffer): boolean {
  for (let i = 0; i < STATUS_LINE_LENGTH - 1; i++) {
    const byte = chunk[i] as number;
    // The minor version: 0 or 1.
    if (i === 7 ? byte !== 0x30 && byte !== 0x31 : byte !== CONTINUE[i]) return false;
  }
  const last = chunk[STATUS_LINE_LENGTH - 1];
  return last === 0x20 || last === 0x0d;
}

// undici's code for a head past its limit, so the answer is the same connection failure a final head gets.
function continueOverflow(): Error {
  const message = `a 100 Continue's header block went past ${maxHeaderSize} bytes without ending; the connection was dropped`;
  return Object.assign(new Error(message), { code: 'UND_ERR_HEADERS_OVERFLOW' });
}
