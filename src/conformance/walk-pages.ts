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
  // The page that first listed each id: the ids before page n are those of a smaller page number, a view of one map
  // that only grows, so no page copies the ids of the pages before it (a target answering 500,000 records a page
  // for 50 pages would otherwise cost quadratic time and memory).
  const firstListedOn = new Map<string, number>();
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
      const earlier = { has: (id: string) => (firstListedOn.get(id) ?? number) < number, size: firstListedOn.size };
      const walked: WalkPage = { ...page, page: { number, earlier, first, last, capped: !last && number === walk.maxPages } };
      for (const id of ids) {
        if (firstListedOn.size >= MAX_IDS_TRACKED) break;
        if (!firstListedOn.has(id)) firstListedOn.set(id, number);
      }
      return { ...sent, expect: { ...sent.expect, effect: { ...effect, walkPage: walked } } };
    };
    scope.walk = { cursor };
    if (!(await sendAndHold(number === 1 ? step : later, 0, told))) return false;
    if (next === undefined) return true;
    cursor = next;
  }
  return true;
}

// A walk's case creates a handful of records; past this many ids a page that repeats an untracked one goes unseen,
// rather than the runner's memory growing with what a target lists.
const MAX_IDS_TRACKED = 100_000;
