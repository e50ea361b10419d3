import { findResponse } from '../../../contract/find-response.js';
import type { Check } from './check.js';

export const statusDocumented: Check = {
  id: 'status-documented',
  severity: 'medium',
  clause: 'Endpoints: each operation answers only with its documented responses',
  // A step that observes sends what the contract leaves open (limit=101): any status may come back.
  observed: 'skipped',
  check: ({ operation, exchange }) => {
    const status = exchange.response?.status;
    if (status === undefined || findResponse(operation, status)) return undefined;
    return {
      title: `status ${status} is not documented for ${operation.operationId}`,
      received: `HTTP ${status}`,
      documented: operation.responses.map((r) => r.code).join(', '),
    };
  },
};
