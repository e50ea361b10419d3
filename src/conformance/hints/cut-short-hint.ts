import type { CutShort } from '../run-result.js';

/**
 * A run that left cases unsent for a slow target fails, and says first why: a red run whose failures are a few
 * timeouts reads as a broken contract otherwise.
 */
export function cutShortHint(cutShort: CutShort | undefined): string | undefined {
  if (cutShort === undefined) return undefined;
  const parts = cutShort.reasons.map(
    ({ reason, cases }) => `${cases} case${cases === 1 ? '' : 's'} not run or not finished: ${reason}`,
  );
  const advice = cutShort.deadline
    ? ' Raise --deadline, or find why the target is slow.'
    : ' Find why the target is slow, or raise --timeout.';
  return `The run was cut short, so it fails: ${parts.join('; ')}. The reports hold what ran.${advice}`;
}
