import { judgeWriteOnlyHidden } from '../../../contract/judge/write-only-hidden.js';
import type { Check } from './check.js';

export const writeOnlyHidden: Check = {
  id: 'write-only-hidden',
  severity: 'medium',
  clause: 'Resources and their fields: a property the response schema marks writeOnly (a password) is not sent back',
  observed: 'documented',
  check: ({ operation, exchange }) => exchange.response && judgeWriteOnlyHidden(operation, exchange.response),
};
