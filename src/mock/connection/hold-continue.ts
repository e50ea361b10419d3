import type { IncomingMessage, ServerResponse } from 'node:http';

// Answers whose 100 Continue is still owed: their client holds its body back until it comes.
const owed = new WeakSet<ServerResponse>();

/**
 * Node's 'checkContinue' listener: Node sends no 100 Continue itself then, and the request runs the stages as any
 * other. The 100 goes when the body is read (continueIfOwed), so a request its headers already refuse (another
 * Host, another site's Origin, no key, a Content-Length past the cap) is answered before its client sends a byte
 * of body. RFC 9110 §10.1.1.
 */
export function holdContinue(req: IncomingMessage, res: ServerResponse): void {
  const length = req.headers['content-length'];
  if (req.headers['transfer-encoding'] !== undefined || (length !== undefined && length !== '0')) owed.add(res);
}

/** Sends the 100 Continue the client waits for, if it is owed: the body is about to be read. */
export function continueIfOwed(res: ServerResponse): void {
  if (!owed.delete(res)) return;
  res.writeContinue();
}

/**
 * The client still holds its body back: the answer ends the connection (RFC 9110 §10.1.1 asks the server to say
 * whether it will), since the body may or may not follow, and would be read as the next request if it did.
 */
export function continueOwed(res: ServerResponse): boolean {
  return owed.has(res);
}
