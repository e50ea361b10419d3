import { countHeader } from '../../../contract/count-header.js';
import { arrayAt } from '../../../contract/resources/resource-roles.js';
import type { Check } from './check.js';

/**
 * A list's documented count header (`X-Total-Count`, src/contract/count-header.ts) counts the records its query
 * matches in all: a whole number, never fewer than the page holds; and where the case filtered the list to exactly
 * its own records (expect.totalCount), that many. A list that documents no such header is held to nothing.
 */
export const totalCount: Check = {
  id: 'total-count',
  severity: 'high',
  clause:
    "a list's documented total-count header (X-Total-Count, X-Total, Total-Count) is the number of records its query matches: an integer no smaller than the page",
  observed: 'skipped',
  check: ({ operation, exchange, expect, run }) => {
    const response = exchange.response;
    const name = countHeader(operation);
    const role = run.roles.get(operation.operationId);
    if (!response || name === undefined || role?.kind !== 'list' || response.status < 200 || response.status > 299)
      return undefined;
    const given = response.headers[name];
    if (given === undefined) return undefined;
    const items = arrayAt(response.json, role.resource.listPointer);
    const count = /^\s*\d+\s*$/.test(given) ? Number(given) : undefined;
    const problem = (what: string, documented: string) => ({
      title: `total-count: ${name} ${what}`,
      received: `${name}: ${given}${items ? `, with ${items.length} records on the page` : ''}`,
      documented,
    });
    if (count === undefined) return problem('is not a whole number', `${name}: a non-negative integer`);
    if (items && count < items.length)
      return problem(`says ${count}, fewer than the ${items.length} records on the page`, `at least ${items.length}`);
    if (expect?.totalCount !== undefined && count !== expect.totalCount)
      return problem(
        `says ${count}, where the list is filtered to the case's own ${expect.totalCount} record${expect.totalCount === 1 ? '' : 's'}`,
        `${name}: ${expect.totalCount}`,
      );
    return undefined;
  },
};
