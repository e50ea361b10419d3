import { REFUSED_MARK, refusedMarksIn } from '../resource-marks.js';
import type { Check } from './check.js';

/**
 * A create the target refused (400: "body missing required fields or containing invalid values") added nothing:
 * its body's mark never shows in a later answer, a list or a fetch. Seen only when such an answer holds it: a
 * full page in another order may not, so this finds some such servers, never a correct one.
 */
export const refusedNotStored: Check = {
  id: 'refused-not-stored',
  severity: 'high',
  clause: 'Add an animal: 400 for a body missing required fields or containing invalid values, so no animal was added',
  observed: 'applies',
  check: ({ operation, exchange, run }) => {
    const response = exchange.response;
    if (!response) return undefined;
    if (operation.method === 'POST' && response.status >= 400 && response.status < 500) {
      for (const mark of refusedMarksIn(exchange.request.body)) run.refusedMarks.add(mark);
      return undefined;
    }
    if (operation.method !== 'GET' || response.status < 200 || response.status > 299 || run.refusedMarks.size === 0) return undefined;
    if (!response.text.includes(REFUSED_MARK)) return undefined;
    const stored = refusedMarksIn(response.text).find((mark) => run.refusedMarks.has(mark));
    if (stored === undefined) return undefined;
    return {
      title: `a resource from a create the target refused is served: ${stored}`,
      received: `an answer holding "${stored}", the name sent in a create that was answered with a 4xx`,
      documented: 'a refused create adds nothing',
    };
  },
};
