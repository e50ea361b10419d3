import type { Check } from './check.js';

/**
 * RFC 9110 §9.1: a server that does not support a method on a resource refuses it, with 405 (§15.5.6) or, for a
 * method it does not implement at all, 501 (§15.6.2); §9.3.2 and §9.3.7 define HEAD and OPTIONS for every
 * resource. The contract documents neither, so any 4xx is read as "not served", never a finding; a server error,
 * a dropped connection or no answer is a server that breaks on a request every HTTP client may send.
 */
export const headOptionsAnswered: Check = {
  id: 'head-options-answered',
  severity: 'critical',
  clause:
    'RFC 9110 §9.1, §9.3.2, §9.3.7, §15.6.2: HEAD and OPTIONS are served or refused (405, 501, any 4xx: not served); never a server error, a dropped connection or no answer',
  observed: 'applies',
  check: ({ operation, exchange }) => {
    const method = exchange.request.method;
    if (method === operation.method) return undefined;
    const documented = `an answer to ${method}: served, or refused with 405 or 501`;
    if (exchange.error)
      return { title: `${method} got no answer: ${exchange.error.message}`, received: exchange.error.message, documented };
    const status = exchange.response?.status;
    if (status === undefined || status < 500 || status === 501) return undefined;
    return { title: `server error ${status} to ${method}`, received: `${method}: HTTP ${status}`, documented };
  },
};
