import { filledPage } from '../filled-page.js';
import { REFUSED_MARK, refusedMarksIn } from '../../cases/resource-marks.js';
import { type Check, caseMarks, rememberCaseMarks } from './check.js';

/**
 * A create the target refused (400: "body missing required fields or containing invalid values") added nothing:
 * its body's mark never shows in a later answer, a list or a fetch. Seen only when such an answer holds it: a
 * full page in another order may not, and then the case that sent the refused creates is "not verified".
 */
export const refusedNotStored: Check = {
  id: 'refused-not-stored',
  severity: 'high',
  clause: 'Add an animal: 400 for a body missing required fields or containing invalid values, so no animal was added',
  observed: 'applies',
  check: (input) => {
    const { operation, exchange, run } = input;
    const response = exchange.response;
    if (!response) return undefined;
    if (operation.method === 'POST' && response.status >= 400 && response.status < 500) {
      const marks = refusedMarksIn(exchange.request.body);
      for (const mark of marks) run.refusedMarks.add(mark);
      rememberCaseMarks(input, marks);
      return undefined;
    }
    if (operation.method !== 'GET' || response.status < 200 || response.status > 299 || run.refusedMarks.size === 0)
      return undefined;
    if (!response.text.includes(REFUSED_MARK)) return undefined;
    const stored = refusedMarksIn(response.text).find((mark) => run.refusedMarks.has(mark));
    if (stored === undefined) return undefined;
    return {
      title: `a resource from a create the target refused is served: ${stored}`,
      received: `an answer holding "${stored}", the name sent in a create that was answered with a 4xx`,
      documented: 'a refused create adds nothing',
    };
  },
  unverified: (input) => {
    const refused = caseMarks(input, REFUSED_MARK);
    const page = refused.length === 0 || input.operation.method !== 'GET' ? undefined : filledPage(input);
    return page === undefined
      ? undefined
      : `the list answered a full page of ${page}, without any of this case's ${refused.length} refused creates: one stored anyway may be on a later page`;
  },
};
