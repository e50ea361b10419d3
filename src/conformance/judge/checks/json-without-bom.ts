import { judgeJsonWithoutBom } from '../../../contract/judge/json-without-bom.js';
import type { Check } from './check.js';

export const jsonWithoutBom: Check = {
  id: 'json-without-bom',
  severity: 'medium',
  clause:
    "What the service does: response bodies are JSON (application/json), and RFC 8259 §8.1 says a JSON text sent over a network must not begin with a byte order mark (strict parsers, such as Python's json.loads, refuse one)",
  observed: 'applies',
  check: ({ exchange }) => exchange.response && judgeJsonWithoutBom(exchange.response),
};
