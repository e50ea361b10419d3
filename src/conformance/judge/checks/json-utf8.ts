import { judgeJsonUtf8 } from '../../../contract/judge/json-utf8.js';
import type { Check } from './check.js';

export const jsonUtf8: Check = {
  id: 'json-utf8',
  severity: 'medium',
  clause:
    'What the service does: response bodies are JSON (application/json), and RFC 8259 §8.1 says JSON text exchanged between systems must be UTF-8 (a strict client refuses other bytes; a lenient one shows U+FFFD)',
  observed: 'applies',
  check: ({ operation, exchange }) => exchange.response && judgeJsonUtf8(operation, exchange.response),
};
