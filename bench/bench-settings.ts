/** Every setting of one benchmark run; written into the report as they were. */
export interface BenchSettings {
  readonly mode: 'full' | 'quick';
  /** Rounds of each measurement; the report gives medians. */
  readonly rounds: number;
  readonly connections: number;
  readonly durationSeconds: number;
  readonly warmupSeconds: number;
  /** Stored-pet counts for the latency and memory measurements. */
  readonly storeSizes: readonly number[];
  /** Sequential requests per latency probe. */
  readonly probeRequests: number;
  readonly scaleDurationSeconds: number;
}

export const FULL: BenchSettings = {
  mode: 'full',
  rounds: 3,
  connections: 50,
  durationSeconds: 10,
  warmupSeconds: 2,
  storeSizes: [1_000, 100_000, 1_000_000],
  probeRequests: 3_000,
  scaleDurationSeconds: 5,
};

// Under a minute, so that CI runs the whole harness: every measurement once, shorter. The figures are noisy.
export const QUICK: BenchSettings = {
  ...FULL,
  mode: 'quick',
  rounds: 1,
  durationSeconds: 1,
  warmupSeconds: 0.5,
  probeRequests: 300,
  scaleDurationSeconds: 1,
};
