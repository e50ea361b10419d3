/**
 * Judging done in batches, in the order it was handed in. Against a fast target the run's thread is what the run
 * waits on, and judging one case's answers between two requests made every check run with its code and the
 * contract's validators cold: judging 128 answers at a time, between requests, took about a tenth less of a
 * default run's CPU time against the mock (docs/performance.md). Each piece of work waits at most `waitMs`, so a
 * slow target's cases still reach the console as they end.
 */
export interface JudgingQueue {
  /** Work done after all work handed in before it; `answers` and `chars` say how much it holds until then. */
  add(work: () => void, answers: number, chars: number): void;
  /** Does all the work handed in so far, now. */
  flush(): void;
  /** Flushes, and throws what the first piece of work that threw threw (the rest was done regardless). */
  close(): void;
}

export interface JudgingLimits {
  readonly answers: number;
  /** Characters of answers held unjudged: a large answer is judged, and let go, at once. */
  readonly chars: number;
  readonly waitMs: number;
}

// 256 KiB, as a case holds (run-scenario.ts): an answer past it is judged, and let go, before the next request.
export const JUDGING_BATCH: JudgingLimits = { answers: 128, chars: 256 * 1024, waitMs: 100 };

/** Work done at once, as it is handed in: what a case run on its own (the probe, a library caller) gets. */
export const JUDGE_AT_ONCE: JudgingQueue = {
  add: (work) => work(),
  flush: () => {},
  close: () => {},
};

export function createJudgingQueue(limits: JudgingLimits = JUDGING_BATCH): JudgingQueue {
  let queued: (() => void)[] = [];
  let answers = 0;
  let chars = 0;
  let timer: NodeJS.Timeout | undefined;
  let failure: { readonly error: unknown } | undefined;
  const flush = () => {
    clearTimeout(timer);
    timer = undefined;
    const work = queued;
    queued = [];
    answers = 0;
    chars = 0;
    // A piece of work that throws (a bug: checks' own errors are findings) must not keep the cases after it from
    // their verdicts, whose promises the run waits on.
    for (const one of work) {
      try {
        one();
      } catch (error) {
        failure ??= { error };
      }
    }
  };
  return {
    add(work, held, size) {
      queued.push(work);
      answers += held;
      chars += size;
      if (answers >= limits.answers || chars >= limits.chars) flush();
      else timer ??= setTimeout(flush, limits.waitMs);
    },
    flush,
    close() {
      flush();
      if (failure !== undefined) throw failure.error;
    },
  };
}
