import type { Check } from './check.js';

export const headersExpected: Check = {
  id: 'headers-expected',
  severity: 'medium',
  clause: "the step's expected headers",
  observed: 'applies',
  check: ({ expect, exchange }) => {
    const response = exchange.response;
    const expected = expect?.headers;
    if (!response || !expected) return undefined;
    const wrong = Object.entries(expected).filter(([name, value]) =>
      value === true ? response.headers[name] === undefined : response.headers[name] !== value,
    );
    if (wrong.length === 0) return undefined;
    return {
      title: `header ${wrong.map(([name]) => name).join(', ')} not as expected`,
      received: wrong.map(([name]) => `${name}: ${response.headers[name] ?? '(absent)'}`).join('; '),
      documented: wrong.map(([name, value]) => `${name}: ${value === true ? '(present)' : value}`).join('; '),
    };
  },
};
