import type { TargetGone } from '../run-result.js';

const LISTED = 3;

/** A target that went away mid-run is not a broken contract: say when, what it cut short, and what to look at. */
export function targetGoneHint(gone: TargetGone): string {
  const count = gone.cases.length;
  const listed = gone.cases.slice(0, LISTED).join(', ') + (count > LISTED ? ` and ${count - LISTED} more` : '');
  const before =
    gone.failedBefore === 0
      ? 'no case had failed on the contract before'
      : `${gone.failedBefore} case${gone.failedBefore === 1 ? '' : 's'} had failed on the contract before`;
  return `The target stopped answering at ${gone.at}, ${(gone.afterMs / 1000).toFixed(1)} s into the run (${gone.failure}), and never answered again: ${count} case${count === 1 ? '' : 's'} got no answer from then on (${listed}), errors of the run, not contract failures; ${before}. Check whether the target crashed or was restarted.`;
}
