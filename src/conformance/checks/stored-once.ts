import { ONCE_MARK, onceMarksIn } from '../resource-marks.js';
import type { Check } from './check.js';

/**
 * One create adds one resource: a list never holds two resources named with the mark that only one create sent
 * (resource-marks.ts). Seen when the page holds both.
 */
export const storedOnce: Check = {
  id: 'stored-once',
  severity: 'high',
  clause: 'Add an animal: one request adds one animal (201: "the added animal")',
  observed: 'applies',
  check: ({ operation, exchange }) => {
    const response = exchange.response;
    if (!response || operation.method !== 'GET' || response.status < 200 || response.status > 299) return undefined;
    if (!response.text.includes(ONCE_MARK) || !Array.isArray(response.json)) return undefined;
    const seen = new Set<string>();
    for (const item of response.json) {
      for (const mark of onceMarksIn(item)) {
        if (!seen.has(mark)) {
          seen.add(mark);
          continue;
        }
        return {
          title: `one create was stored twice: two listed resources are named ${mark}`,
          received: `two resources carrying "${mark}", a name sent in a single create`,
          documented: 'one resource for each create',
        };
      }
    }
    return undefined;
  },
};
