import type { Check } from './check.js';

export const noServerError: Check = {
  id: 'no-server-error',
  severity: 'critical',
  clause: 'Endpoints and Errors: no operation documents a 5xx; a server error is never a chosen answer',
  observed: 'applies',
  check: ({ exchange }) => {
    const status = exchange.response?.status;
    if (status === undefined || status < 500) return undefined;
    return { title: `server error ${status}`, received: `HTTP ${status}`, documented: 'a status below 500' };
  },
};
