import type { Check } from './check.js';

export const authEnforced: Check = {
  id: 'auth-enforced',
  severity: 'critical',
  clause: 'Authentication: a request with a missing or invalid key, or a header not of the form Bearer <API_KEY>, receives 401',
  onObservations: true,
  check: ({ operation, step, exchange }) => {
    const status = exchange.response?.status;
    if (operation.auth !== 'bearer' || step.auth === 'default' || status === undefined || status === 401) return undefined;
    const sent = exchange.request.headers.authorization;
    return {
      title: `${sent === undefined ? 'no Authorization header' : `Authorization: ${sent}`} was not refused`,
      received: `HTTP ${status}`,
      documented: '401 with an Error body',
    };
  },
};
