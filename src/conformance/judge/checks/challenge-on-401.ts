import type { Check } from './check.js';

/**
 * RFC 9110 §15.5.2: a server generating a 401 MUST send a WWW-Authenticate header field with at least one
 * challenge; RFC 6750 §3 and RFC 7617 §2: for a resource protected by the Bearer or the Basic scheme, a challenge
 * of that scheme (its name is case-insensitive, RFC 9110 §11.1). Without it a client cannot tell which credentials
 * to send. An OpenAPI apiKey scheme is no HTTP authentication scheme: no challenge names it, so none is asked for.
 * An oauth2 or openIdConnect operation is asked for a challenge of any scheme: the contract names no HTTP one.
 */
export const challengeOn401: Check = {
  id: 'challenge-on-401',
  severity: 'medium',
  clause:
    'RFC 9110 §15.5.2: a 401 MUST carry WWW-Authenticate; RFC 6750 §3 (RFC 7617 §2): a Bearer (Basic) challenge for a bearer (basic) protected operation',
  observed: 'applies',
  check: ({ operation, exchange }) => {
    const response = exchange.response;
    if (response?.status !== 401 || operation.key?.scheme === 'apiKey') return undefined;
    const challenge = response.headers['www-authenticate'];
    const key = operation.key;
    const scheme = key?.scheme === 'basic' ? 'Basic' : key?.scheme === 'bearer' && !key.tokenOf ? 'Bearer' : undefined;
    if (challenge !== undefined && (scheme === undefined || challenges(challenge, scheme))) return undefined;
    return {
      title:
        challenge === undefined
          ? 'a 401 without WWW-Authenticate'
          : `a 401 whose WWW-Authenticate has no ${scheme} challenge: ${challenge}`,
      received: challenge === undefined ? 'HTTP 401 with no WWW-Authenticate header' : `WWW-Authenticate: ${challenge}`,
      documented: scheme === undefined ? 'a WWW-Authenticate header with a challenge' : `WWW-Authenticate: ${scheme} …`,
    };
  },
};

function challenges(header: string, scheme: 'Basic' | 'Bearer'): boolean {
  return CHALLENGE[scheme].test(header);
}

// Made once: a pattern made for each 401 would be compiled again each time.
const CHALLENGE = { Basic: /(^|,)\s*Basic(\s|,|$)/i, Bearer: /(^|,)\s*Bearer(\s|,|$)/i };
