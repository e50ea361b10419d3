import { judgeContentTypeJson } from '../../../contract/judge/content-type-json.js';
import type { Check } from './check.js';

export const contentTypeJson: Check = {
  id: 'content-type-json',
  severity: 'medium',
  clause: 'What the service does: response bodies are JSON (application/json), as each documented response declares',
  observed: 'documented',
  check: ({ operation, exchange }) => exchange.response && judgeContentTypeJson(operation, exchange.response),
};
