import type { Check } from './check.js';

/**
 * After a write the case made to its own record was answered 2xx, a read of the record (with If-None-Match naming
 * the tag it had, where the contract promises 304s) is not 304, and its ETag is another one: a tag that outlives the
 * representation it names lets a client keep a stale copy, or overwrite the change with an If-Match that still holds.
 */
export const etagChanges: Check = {
  id: 'etag-changes',
  severity: 'high',
  clause:
    'RFC 9110 §8.8.3, §13.1.2: an entity tag names one representation: after a write changed the record, the tag it had is no longer its ETag and an If-None-Match naming it is not answered 304',
  observed: 'skipped',
  check: ({ expect, exchange }) => {
    const wanted = expect?.conditional;
    const response = exchange.response;
    if (wanted?.check !== 'etag-changes' || !response || !String(wanted.writeStatus).startsWith('2')) return undefined;
    const documented = `a record changed by the write: 200 with an ETag other than ${wanted.was}`;
    if (response.status === 304)
      return {
        title: `etag-changes: 304 Not Modified for the tag ${wanted.was} the record had before the write`,
        received: 'HTTP 304: the client keeps the record as it was before the write',
        documented,
      };
    if (response.status < 200 || response.status > 299 || response.headers.etag !== wanted.was) return undefined;
    return {
      title: `etag-changes: the ETag stayed ${wanted.was} after the write changed the record`,
      received: `ETag: ${wanted.was}, before and after the write`,
      documented,
    };
  },
};
