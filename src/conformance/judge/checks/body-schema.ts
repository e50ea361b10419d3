import { judgeBodySchema } from '../../../contract/judge/body-schema.js';
import type { Check } from './check.js';

export const bodySchema: Check = {
  id: 'body-schema',
  severity: 'high',
  clause: 'Resources and their fields: the body of a documented response matches its schema (Pet, Pets, Error, Message)',
  observed: 'documented',
  check: ({ operation, exchange }) => exchange.response && judgeBodySchema(operation, exchange.response),
};
