import type { Check } from './check.js';

export const statusExpected: Check = {
  id: 'status-expected',
  severity: 'high',
  clause: "the step's expected status, which the scenario derives from the contract",
  fileClause: "the step's expected status, as the scenario file expects it",
  observed: 'applies',
  check: ({ expect, exchange }) => {
    const status = exchange.response?.status;
    const expected = expect?.status;
    if (status === undefined || expected === undefined || expected.some((e) => statusMatches(status, e))) return undefined;
    return {
      title: `expected status ${expected.join(' or ')}, got ${status}`,
      received: `HTTP ${status}${exchange.response?.text ? `: ${exchange.response.text.slice(0, 200)}` : ''}`,
      documented: expected.join(' or '),
    };
  },
};

function statusMatches(status: number, expected: number | string): boolean {
  if (typeof expected === 'number') return status === expected;
  return String(status)[0] === expected[0];
}
