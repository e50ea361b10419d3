import type { Check } from './check.js';

/** RFC 9110 §15.5.6: the origin server MUST generate an Allow header field in a 405 response (§10.2.1). */
export const allowOn405: Check = {
  id: 'allow-on-405',
  severity: 'medium',
  clause: 'RFC 9110 §15.5.6: a 405 MUST carry Allow, listing the methods the target resource supports',
  observed: 'applies',
  check: ({ exchange }) => {
    const response = exchange.response;
    if (response?.status !== 405 || response.headers.allow !== undefined) return undefined;
    return {
      title: 'a 405 without Allow',
      received: 'HTTP 405 with no Allow header',
      documented: 'Allow: <the methods the resource supports> (may be empty)',
    };
  },
};
