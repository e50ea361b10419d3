import type { Check } from './check.js';

/**
 * RFC 9112 §6.3: an answer to HEAD, and any 1xx, 204 or 304, "is always terminated by the first empty line after
 * the header fields"; RFC 9110 §9.3.2 and §15.3.5: it has no content. Bytes a server writes after it are read by
 * the client as the start of the next answer on the connection, which then fails or, worse, answers another request.
 * Seen only on a request the case sends raw (http/send-raw.ts): undici drops such bytes with the connection. High,
 * as the same fault with a Content-Length is a failed answer (`answered`).
 */
export const noContentAfterHeaders: Check = {
  id: 'no-content-after-headers',
  severity: 'high',
  clause:
    'RFC 9112 §6.3: an answer to HEAD, and a 1xx, 204 or 304, ends at its header block: no byte follows it on the connection',
  observed: 'applies',
  check: ({ exchange }) => {
    const after = exchange.afterHead;
    const response = exchange.response;
    if (!response || after === undefined || !('strayBytes' in after) || after.strayBytes === 0) return undefined;
    const what = exchange.request.method === 'HEAD' ? `the ${response.status} to HEAD` : `a ${response.status}`;
    return {
      title: `${after.strayBytes} bytes followed the header block of ${what}, which can have no content`,
      received: `HTTP ${response.status}, then ${after.strayBytes} bytes: ${JSON.stringify(after.strayStart)}`,
      documented: 'nothing after the header block: a client reads those bytes as the next answer on the connection',
    };
  },
  // Said only where the step was there to see it: a raw request of the operation's own method (a DELETE's 204),
  // or a HEAD, whose answer always ends at its header block. A raw request sent in case an operation that documents
  // no 204 answers one (a PUT's 200) is silent unless a 204 or 304 came.
  unverified: ({ operation, exchange }) => {
    const after = exchange.afterHead;
    const method = exchange.request.method;
    if (after === undefined || !('unread' in after) || (method !== operation.method && method !== 'HEAD')) return undefined;
    const status = exchange.response?.status;
    const inCase = method !== 'HEAD' && !operation.responses.some((r) => r.code === '204');
    return inCase && status !== 204 && status !== 304 ? undefined : after.unread;
  },
};
