import type { StopKind } from '../run-result.js';

/** How each report names a stopped run: short in titles, long where the verdict is spelt out. */
export const STOP_TITLES: Readonly<Record<StopKind, { readonly short: string; readonly long: string }>> = {
  configuration: { short: 'configuration error', long: 'a configuration error, not a target failure' },
  unavailable: { short: 'target unavailable', long: 'the target is not serving now, not a contract failure' },
};
