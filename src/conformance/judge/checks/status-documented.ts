import { judgeStatusDocumented } from '../../../contract/judge/status-documented.js';
import type { Check } from './check.js';

const PATH_PARAMETER = /\{[^{}]+\}/;

export const statusDocumented: Check = {
  id: 'status-documented',
  severity: 'medium',
  clause: 'Endpoints: each operation answers only with its documented responses',
  // A step that observes sends what the contract leaves open (limit=101): any status may come back.
  observed: 'skipped',
  check: ({ operation, exchange }) => {
    const response = exchange.response;
    // A path that names no record is answered 404 by HTTP itself (RFC 9110 §15.5.5), and OpenAPI does not expect
    // a contract to list every such status: a generated one (drf-spectacular) lists its successes alone.
    if (!response || (response.status === 404 && PATH_PARAMETER.test(operation.path))) return undefined;
    return judgeStatusDocumented(operation, response);
  },
};
