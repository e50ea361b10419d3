import { judgeHeadersDocumented } from '../../../contract/judge/headers-documented.js';
import type { Check } from './check.js';

export const headersDocumented: Check = {
  id: 'headers-documented',
  severity: 'medium',
  clause: 'Endpoints: the headers a documented response requires are present',
  observed: 'documented',
  check: ({ operation, exchange }) => exchange.response && judgeHeadersDocumented(operation, exchange.response),
};
