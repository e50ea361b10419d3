import type { RunResult, ScenarioResult } from '../run-result.js';

/** Where reporters write: files in the report folder, lines for the person running it. Given by the caller. */
export interface ReporterContext {
  readonly reportDir: string;
  /** Writes a file in reportDir and returns its path. */
  writeFile(name: string, content: string): Promise<string>;
  /** One line of console output. */
  print(line: string): void;
  /** $GITHUB_STEP_SUMMARY when set: the markdown summary is appended to it. */
  readonly stepSummaryFile: string | undefined;
  /** The console may colour its lines (a terminal, and NO_COLOR unset). Default: no colour. */
  readonly color?: boolean;
  /** A transient status line, on a terminal only: each call replaces the last, and print() clears it first. */
  readonly progress?: (line: string) => void;
}

/** Why a run did not happen or did not finish (exit 2, 3 or 4): reports say so instead of keeping older ones. */
export interface NotRun {
  readonly target: string | undefined;
  readonly exitCode: number;
  /** The AppError code ('usage', 'target_unreachable', ...), or 'bug'. */
  readonly code: string;
  /** One line, already redacted. */
  readonly message: string;
  readonly startedAt: string;
}

export interface RunStart {
  readonly target: string;
  readonly scenarios: number;
  readonly files: number;
  /** The generator's seed: `--seed` with it sends the same cases again. */
  readonly seed: number;
}

/** Reporters observe the run through optional hooks (as vitest's do). They never decide the exit code. */
export interface Reporter {
  readonly name: string;
  /** The files it writes in the report folder: a run without this reporter removes them, left from an earlier run. */
  readonly files?: readonly string[];
  onRunStart?(start: RunStart, context: ReporterContext): void | Promise<void>;
  onScenarioEnd?(scenario: ScenarioResult, context: ReporterContext): void | Promise<void>;
  onRunEnd?(result: RunResult, context: ReporterContext): void | Promise<void>;
  /** The run did not happen (a usage error, an unreachable target): overwrite what an earlier run wrote. */
  onRunError?(notRun: NotRun, context: ReporterContext): void | Promise<void>;
}
