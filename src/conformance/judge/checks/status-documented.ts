import { judgeStatusDocumented } from '../../../contract/judge/status-documented.js';
import type { Check } from './check.js';

export const statusDocumented: Check = {
  id: 'status-documented',
  severity: 'medium',
  clause: 'Endpoints: each operation answers only with its documented responses',
  // A step that observes sends what the contract leaves open (limit=101): any status may come back.
  observed: 'skipped',
  check: ({ operation, exchange }) => exchange.response && judgeStatusDocumented(operation, exchange.response),
};
