import { judgeErrorStatusMatches } from '../../../contract/judge/error-status-matches.js';
import type { Check } from './check.js';

export const errorStatusMatches: Check = {
  id: 'error-status-matches',
  severity: 'high',
  clause: 'Error: status is the HTTP status code of the response',
  observed: 'documented',
  check: ({ exchange }) => exchange.response && judgeErrorStatusMatches(exchange.response),
};
