import type { ConformanceOptions } from '../../src/conformance/run-conformance.js';

type Given = Pick<ConformanceOptions, 'target' | 'token' | 'scenarios'> & Partial<ConformanceOptions>;

/** runConformance's options as a library caller gives them: the CLI's defaults, one case at a time, no reporters. */
export function libraryRun(given: Given): ConformanceOptions {
  return {
    failOn: 'medium',
    timeoutMs: 10_000,
    maxResponseTimeMs: 10_000,
    concurrency: 1,
    rateLimit: undefined,
    readOnly: false,
    tags: [],
    skipTags: [],
    version: 'test',
    ...given,
  };
}
