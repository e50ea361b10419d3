import type { Exchange } from './http/exchange.js';
import type { CutShort } from './run-result.js';

/**
 * After this many timeouts in a row on one operation, its steps are no longer sent: each one more would only cost
 * another --timeout and tell nothing new (a getPet answering after 15 s took a run through 36 timeouts of 10 s).
 */
export const TIMEOUTS_IN_A_ROW = 3;

/** The run's wall-clock end (--deadline): a performance.now() time, and how the option was spelled. */
export interface RunDeadline {
  readonly at: number;
  readonly name: string;
}

/**
 * What keeps a run against a slow target bounded: the deadline, and operations given up after timeouts in a row.
 * The pool asks before a case starts, a case before each step; a refusal is counted once per case it stops.
 */
export interface RunBounds {
  readonly deadline: RunDeadline | undefined;
  /**
   * Why what is about to start (a case, or the rest of one) must not, given the operations it sends to; undefined
   * when it may. Each refusal stops one case, and is counted as such.
   */
  refuse(operationIds: Iterable<string>): string | undefined;
  /** Every answer or transport error of a case, as it comes. */
  note(operationId: string, exchange: Pick<Exchange, 'error'>): void;
  /** A case stopped by the deadline elsewhere (a 429's wait that would end past it): counted with the others. */
  deadlineMet(reason: string): void;
  /** What the bounds left unsent; undefined when nothing. */
  cutShort(): CutShort | undefined;
}

export function createRunBounds(deadline: RunDeadline | undefined, timeoutMs: number, now = () => performance.now()): RunBounds {
  const inARow = new Map<string, number>();
  const givenUp = new Map<string, string>();
  const cut = new Map<string, { by: 'deadline' | 'timeouts'; cases: number }>();
  const deadlineReason = deadline && `--deadline ${deadline.name} reached`;
  const count = (reason: string, by: 'deadline' | 'timeouts') => {
    const seen = cut.get(reason) ?? { by, cases: 0 };
    seen.cases++;
    cut.set(reason, seen);
    return reason;
  };
  return {
    deadline,
    refuse(operationIds) {
      if (deadline && now() >= deadline.at) return count(deadlineReason as string, 'deadline');
      for (const operationId of operationIds) {
        const reason = givenUp.get(operationId);
        if (reason !== undefined) return count(reason, 'timeouts');
      }
      return undefined;
    },
    note(operationId, { error }) {
      if (givenUp.has(operationId)) return;
      const streak = error?.kind === 'timeout' ? (inARow.get(operationId) ?? 0) + 1 : 0;
      inARow.set(operationId, streak);
      if (streak >= TIMEOUTS_IN_A_ROW) {
        givenUp.set(operationId, `the target timed out on ${operationId} ${streak} times in a row (--timeout ${timeoutMs} ms)`);
      }
    },
    deadlineMet: (reason) => void count(reason, 'deadline'),
    cutShort() {
      if (cut.size === 0) return undefined;
      const reasons = [...cut].map(([reason, { by, cases }]) => ({ reason, by, cases }));
      return { deadline: reasons.some((r) => r.by === 'deadline'), reasons };
    },
  };
}

/** 300000 → '5m', 1500 → '1500ms': how a duration option is written back in reasons. */
export function formatDuration(ms: number): string {
  for (const [unit, size] of [
    ['h', 3_600_000],
    ['m', 60_000],
    ['s', 1000],
  ] as const) {
    if (ms >= size && ms % size === 0) return `${ms / size}${unit}`;
  }
  return `${ms}ms`;
}
