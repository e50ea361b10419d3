import type { Problem } from './problem.js';
import type { ReceivedResponse } from './received-response.js';

/** A body that begins with a byte order mark. */
export function judgeJsonWithoutBom(response: ReceivedResponse): Problem | undefined {
  if (!response.byteOrderMark) return undefined;
  return {
    title: 'the body begins with a byte order mark (U+FEFF)',
    received: 'the bytes EF BB BF before the body',
    documented: 'a JSON text without a byte order mark',
  };
}
