import { readNextCursor } from '../contract/resources/next-cursor.js';
import { arrayAt } from '../contract/resources/resource-roles.js';
import type { CursorWalk, Step, WalkPage } from './cases/scenario.js';
import type { Sent } from './judge/create-judge.js';
import { idOf } from './judge/checks/cursor-walk.js';

type SendAndHold = (step: Step, index: number, told: (sent: Sent) => Sent) => Promise<boolean>;

/**
 * Sends a list step page after page: the first as written, each next one with the cursor the answer before it
 * carried (where the resource model says: a field, or the Link header), until an answer carries none or
 * `maxPages` were read. Each page's expectation is told the ids earlier pages listed and whether the walk ends
 * there, for the cursor-walk check. The cursor goes out through the scope (`{{walk.cursor}}`): a value the target
 * chose is never read as a template.
 */
export async function walkPages(
  step: Step,
  walk: CursorWalk,
  scope: Record<string, unknown>,
  sendAndHold: SendAndHold,
): Promise<boolean> {
  const earlier: string[] = [];
  let first: readonly string[] = [];
  const later: Step = { ...step, query: { ...step.query, [walk.parameter]: '{{walk.cursor}}' }, templated: true };
  let cursor: string | undefined;
  for (let number = 1; number <= walk.maxPages; number++) {
    let next: string | undefined;
    const told = (sent: Sent): Sent => {
      const response = sent.exchange.response;
      const effect = sent.expect.effect;
      const page = effect?.walkPage;
      // An answer other than a page (a refusal) ends the walk; its status is the other checks' to judge.
      if (!response || !effect || !page || response.status < 200 || response.status > 299) return sent;
      next = readNextCursor(walk.next, walk.parameter, response.json, response.headers.link);
      const ids = (arrayAt(response.json, page.pointer) ?? [])
        .map((item) => idOf(item, page.field))
        .filter((id): id is string => id !== undefined);
      if (number === 1) first = ids;
      const last = next === undefined;
      const walked: WalkPage = {
        ...page,
        page: { number, earlier: [...earlier], first, last, capped: !last && number === walk.maxPages },
      };
      earlier.push(...ids);
      return { ...sent, expect: { ...sent.expect, effect: { ...effect, walkPage: walked } } };
    };
    scope.walk = { cursor };
    if (!(await sendAndHold(number === 1 ? step : later, 0, told))) return false;
    if (next === undefined) return true;
    cursor = next;
  }
  return true;
}
