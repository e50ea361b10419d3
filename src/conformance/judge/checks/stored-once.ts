import { parseJson } from '../../../contract/lossless-json.js';
import { filledPage, listAnswer } from '../filled-page.js';
import { ONCE_MARK, onceMarksIn } from '../../cases/resource-marks.js';
import { type Check, type CheckInput, caseMarks, rememberCaseMarks } from './check.js';

/**
 * One create adds one resource: a list never holds two resources named with the mark that only one create sent
 * (resource-marks.ts). Seen when the page holds both; a full page that holds neither is "not verified".
 */
export const storedOnce: Check = {
  id: 'stored-once',
  severity: 'high',
  clause: 'Add an animal: one request adds one animal (201: "the added animal")',
  observed: 'applies',
  check: (input) => {
    const { operation, exchange } = input;
    const response = exchange.response;
    if (operation.method === 'POST' && response && response.status >= 200 && response.status < 300) rememberSent(input);
    if (!response || operation.method !== 'GET' || response.status < 200 || response.status > 299) return undefined;
    const listed = response.text.includes(ONCE_MARK) ? listAnswer(input) : undefined;
    if (!listed) return undefined;
    const seen = new Set<string>();
    for (const item of listed) {
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
  unverified: (input) => {
    const sent = caseMarks(input, ONCE_MARK);
    const body = sent.length === 0 || input.operation.method !== 'GET' ? undefined : listAnswer(input);
    if (!body) return undefined;
    // Stops at the first item that carries one: no set of every mark on the page.
    const listed = body.some((item) => {
      const marks = onceMarksIn(item);
      return marks.size > 0 && sent.some((mark) => marks.has(mark));
    });
    const page = listed ? undefined : filledPage(input);
    return page === undefined
      ? undefined
      : `the list answered a full page of ${page} without the resource this case created: a second copy may be on a later page`;
  },
};

// The once mark a create of this case sent, for its list step (the mark is in the request body's naming field).
function rememberSent(input: CheckInput): void {
  const text = input.exchange.request.body;
  if (text === undefined || !text.includes(ONCE_MARK)) return;
  try {
    rememberCaseMarks(input, [...onceMarksIn(parseJson(text))]);
  } catch {
    // A body that is not JSON names nothing.
  }
}
