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
  /** Authors the second resource's mock is seeded with (bench/library-scenarios.ts): more than a run deletes. */
  readonly seededAuthors: number;
  /** The second resource's runs and warm-ups. */
  readonly resourceDurationSeconds: number;
  readonly resourceWarmupSeconds: number;
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
  seededAuthors: 1_000_000,
  resourceDurationSeconds: 10,
  resourceWarmupSeconds: 2,
};

// About a minute, so that CI runs the whole harness: every measurement once, shorter. The figures are noisy.
export const QUICK: BenchSettings = {
  ...FULL,
  mode: 'quick',
  rounds: 1,
  durationSeconds: 1,
  warmupSeconds: 0.5,
  probeRequests: 300,
  scaleDurationSeconds: 1,
  // Without warm-ups, the second resource's runs add about 10 s to the quick run (autocannon runs whole
  // seconds: a shorter warm-up would take one too).
  seededAuthors: 50_000,
  resourceDurationSeconds: 1,
  resourceWarmupSeconds: 0,
};

/** The settings of the second resource's runs: its own durations, the rest alike. */
export function resourceSettings(settings: BenchSettings): BenchSettings {
  return { ...settings, durationSeconds: settings.resourceDurationSeconds, warmupSeconds: settings.resourceWarmupSeconds };
}
