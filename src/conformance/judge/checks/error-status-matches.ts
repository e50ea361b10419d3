import { show } from '../subset-mismatch.js';
import type { Check } from './check.js';

export const errorStatusMatches: Check = {
  id: 'error-status-matches',
  severity: 'high',
  clause: 'Error: status is the HTTP status code of the response',
  observed: 'documented',
  check: ({ exchange }) => {
    const response = exchange.response;
    const body = response?.json;
    if (!response || response.status < 400 || body === null || typeof body !== 'object' || Array.isArray(body)) return undefined;
    if (!('status' in body) || body.status === response.status) return undefined;
    // Shown as JSON: a status sent as the string "401" must not read like the number it differs from.
    return {
      title: `Error status ${show(body.status)} differs from the HTTP status ${response.status}`,
      received: `HTTP ${response.status} with body.status ${show(body.status)}`,
      documented: `body.status ${response.status}`,
    };
  },
};
