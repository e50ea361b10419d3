import type { Check } from './check.js';

// RFC 9110 §5.6.7: IMF-fixdate, e.g. "Sun, 06 Nov 1994 08:49:37 GMT".
const IMF_FIXDATE =
  /^(Mon|Tue|Wed|Thu|Fri|Sat|Sun), (0[1-9]|[12]\d|3[01]) (Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec) \d{4} ([01]\d|2[0-3]):[0-5]\d:([0-5]\d|60) GMT$/;

/**
 * RFC 9110 §5.6.7: a sender MUST generate an HTTP-date in the IMF-fixdate format; a Date in another form (ISO 8601, a
 * local time zone) is misread by caches and by clients that compute ages from it. A missing Date is no finding: only
 * an origin server with a clock MUST send one (§6.6.1), and the runner cannot tell whether the target has one. Low:
 * the API's own clauses do not depend on it, so it fails a run only with --fail-on low.
 */
export const dateHeader: Check = {
  id: 'date-header',
  severity: 'low',
  clause: 'RFC 9110 §5.6.7 and §6.6.1: a Date header, when sent, is an HTTP-date in the IMF-fixdate format',
  observed: 'applies',
  check: ({ exchange }) => {
    const date = exchange.response?.headers.date;
    if (date === undefined || IMF_FIXDATE.test(date)) return undefined;
    return {
      title: `Date is not an HTTP-date: ${date}`,
      received: `Date: ${date}`,
      documented: 'Date: <IMF-fixdate>, e.g. Sun, 06 Nov 1994 08:49:37 GMT',
    };
  },
};
