import { findResponse } from '../../../contract/find-response.js';
import type { Check } from './check.js';

export const headersDocumented: Check = {
  id: 'headers-documented',
  severity: 'medium',
  clause: 'Endpoints: the headers a documented response requires are present',
  observed: 'documented',
  check: ({ operation, exchange }) => {
    const response = exchange.response;
    const required = (response && findResponse(operation, response.status)?.headers.filter((h) => h.required)) ?? [];
    const missing = required.filter((h) => response?.headers[h.name] === undefined).map((h) => h.name);
    if (missing.length === 0) return undefined;
    return {
      title: `missing header${missing.length > 1 ? 's' : ''} ${missing.join(', ')}`,
      received: `headers: ${Object.keys(response?.headers ?? {}).join(', ')}`,
      documented: `required: ${required.map((h) => h.name).join(', ')}`,
    };
  },
};
