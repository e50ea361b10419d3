import type { Check } from './check.js';

/**
 * RFC 9110 §15.5.2: a server generating a 401 MUST send a WWW-Authenticate header field with at least one
 * challenge; RFC 6750 §3: for a bearer-protected resource, a challenge of the Bearer scheme (its name is
 * case-insensitive, RFC 9110 §11.1). Without it a client cannot tell which credentials to send.
 */
export const challengeOn401: Check = {
  id: 'challenge-on-401',
  severity: 'medium',
  clause: 'RFC 9110 §15.5.2: a 401 MUST carry WWW-Authenticate; RFC 6750 §3: a Bearer challenge for a bearer-protected operation',
  observed: 'applies',
  check: ({ operation, exchange }) => {
    const response = exchange.response;
    if (response?.status !== 401) return undefined;
    const challenge = response.headers['www-authenticate'];
    if (challenge !== undefined && (operation.auth !== 'bearer' || /(^|,)\s*bearer(\s|,|$)/i.test(challenge))) return undefined;
    return {
      title:
        challenge === undefined
          ? 'a 401 without WWW-Authenticate'
          : `a 401 whose WWW-Authenticate has no Bearer challenge: ${challenge}`,
      received: challenge === undefined ? 'HTTP 401 with no WWW-Authenticate header' : `WWW-Authenticate: ${challenge}`,
      documented: operation.auth === 'bearer' ? 'WWW-Authenticate: Bearer …' : 'a WWW-Authenticate header with a challenge',
    };
  },
};
