import type { CaseIdentity } from './cases/scenario.js';
import type { Cleanup } from './clean-up.js';
import type { CreatedCount } from './created-resources.js';
import type { LikelyCause } from './judge/likely-causes.js';
import type { SentRequest } from './http/exchange.js';
import type { Severity } from './judge/severity.js';

/** A check's problem with one exchange, with everything needed to see and reproduce it. */
export interface Finding {
  readonly checkId: string;
  readonly severity: Severity;
  readonly clause: string;
  readonly title: string;
  readonly received: string;
  readonly documented: string;
  readonly file: string;
  readonly scenario: string;
  /** 1-based step number within the scenario. */
  readonly step: number;
  readonly operationId: string;
  /** At or above --fail-on: it makes the run fail. */
  readonly blocking: boolean;
  readonly request: SentRequest;
  /** `body` holds at most a few KiB of what came; `bodyLength` is the whole body's length in characters. */
  readonly response:
    | {
        readonly status: number;
        readonly headers: Readonly<Record<string, string>>;
        readonly body: string;
        readonly bodyLength: number;
      }
    | undefined;
  readonly curl: string;
  /**
   * Findings on the same exchange that follow from this one (a wrong status makes the body expectations fail
   * too): shown under it, never counted on their own. Empty for most findings.
   */
  readonly consequences: readonly { readonly checkId: string; readonly severity: Severity; readonly title: string }[];
}

/** What the target does where the contract leaves the answer open: reported, never failed. */
export interface Observation {
  readonly file: string;
  readonly scenario: string;
  readonly step: number;
  readonly operationId: string;
  readonly note: string;
  readonly status: number | undefined;
  readonly body: string;
  readonly curl: string;
}

export interface ExchangeSummary {
  readonly step: number;
  readonly operationId: string;
  readonly method: string;
  readonly url: string;
  readonly status: number | undefined;
  /** The contract's response the status falls under ('200', '2XX', 'default'), if any. */
  readonly documentedAs: string | undefined;
  readonly elapsedMs: number;
  readonly failed: boolean;
  /** Sent by a step marked `observe`: the contract leaves the answer open, so it is recorded, never passed. */
  readonly observed: boolean;
}

export type Outcome = 'passed' | 'failed' | 'skipped';

export interface ScenarioResult extends CaseIdentity {
  readonly outcome: Outcome;
  readonly skipReason: string | undefined;
  readonly durationMs: number;
  readonly exchanges: readonly ExchangeSummary[];
  readonly findings: readonly Finding[];
  readonly observations: readonly Observation[];
}

/** One row of the operations × documented statuses table. */
export interface CoverageRow {
  readonly operationId: string;
  readonly method: string;
  readonly path: string;
  readonly status: string;
  readonly documented: boolean;
  /** The operation is deprecated in the contract (it is still exercised). */
  readonly deprecated: boolean;
  readonly exercised: number;
  readonly passed: number;
  readonly failed: number;
  /** Answers to `observe` steps that no check failed: neither passed nor failed, since the contract is silent. */
  readonly observed: number;
  /**
   * Cases of this operation the runner could not generate, each with the reason (`effects cases of /things (...):
   * /things has no create`); on the operation's first row only, so each is counted once.
   */
  readonly notGenerated?: readonly string[];
}

export interface RunSettings {
  readonly failOn: Severity;
  readonly timeoutMs: number;
  readonly maxResponseTimeMs: number;
  readonly concurrency: number;
  readonly rateLimit: number | undefined;
  readonly readOnly: boolean;
  readonly tags: readonly string[];
  readonly skipTags: readonly string[];
  readonly scenarios: readonly string[];
  /** --shard i/n, when the run was one slice of the cases. */
  readonly shard: string | undefined;
  /** The generator's seed: the same seed sends the same cases. */
  readonly seed: number;
  /** The kinds of generated case that ran (empty with --no-generate). */
  readonly generate: readonly string[];
  readonly maxCases: number | undefined;
  /** --case: only cases whose id or name matches one of these (globs). Empty: all. */
  readonly cases: readonly string[];
  /** --deadline: no case, and no step of a case, starts this long after the run began. */
  readonly deadlineMs?: number | undefined;
}

/**
 * Cases a run did not send, or did not finish, because the target was too slow: --deadline reached, or an
 * operation given up after timeouts in a row (create-run-bounds.ts). Each reason is a case's skip reason.
 */
export interface CutShort {
  /** --deadline was reached: with no failure on the contract, the CLI exits 3 (too slow to judge). */
  readonly deadline: boolean;
  readonly reasons: readonly { readonly reason: string; readonly by: 'deadline' | 'timeouts'; readonly cases: number }[];
}

/**
 * Whose problem stopped the run: its configuration (exit 2: every request with the run's key refused, every
 * operation a 404 nothing documents, a sign-in page or a web page instead of the API), or the target, which is
 * there but not serving now (exit 3: 502, 503 or 504 on every probed operation).
 */
export type StopKind = 'configuration' | 'unavailable';

export interface RunStop {
  readonly kind: StopKind;
  readonly reason: string;
}

/** The target stopped answering at some point (connections refused or reset) and never answered again. */
export interface TargetGone {
  /** When the first request that got no answer failed (ISO 8601). */
  readonly at: string;
  /** How long into the run that was. */
  readonly afterMs: number;
  /** What that request got, in words. */
  readonly failure: string;
  /** The ids of the cases that got no answer from then on: errors of the run, not contract failures. */
  readonly cases: readonly string[];
  /** How many other cases had failed on the contract (exit 1, not 3, when there are any). */
  readonly failedBefore: number;
}

export interface RunResult {
  readonly tool: { readonly name: string; readonly version: string };
  readonly target: string;
  readonly contract: { readonly file: string; readonly title: string; readonly version: string };
  readonly startedAt: string;
  readonly durationMs: number;
  readonly settings: RunSettings;
  readonly verdict: 'passed' | 'failed';
  /** Set when the probe stopped the run before its cases: no contract was judged, and this says why in one line. */
  readonly stopped: RunStop | undefined;
  /** Set when the target stopped answering during the run and never answered again. */
  readonly targetGone: TargetGone | undefined;
  /** The resources inferred from the contract, in one line (contract/resources/): what the run could keep state for. */
  readonly resources?: string;
  /** Resources the run's creates were answered a success for, per collection: what it leaves on the target. */
  readonly created?: readonly CreatedCount[];
  /** What --cleanup deleted of them at the end; undefined when it did not run (--no-cleanup, nothing deletable). */
  readonly cleanup?: Cleanup | undefined;
  /** Failed cases grouped by their first failure, most cases first: the headline (likely-causes.ts). */
  readonly causes: readonly LikelyCause[];
  /** Set when cases were left unsent because the target was too slow: the run fails. */
  readonly cutShort?: CutShort | undefined;
  /** One-line hints for the person reading (a wrong key, a --target without /v1, statuses never exercised). */
  readonly hints: readonly string[];
  readonly totals: {
    readonly scenarios: number;
    readonly passed: number;
    readonly failed: number;
    readonly skipped: number;
    readonly exchanges: number;
    readonly findings: number;
    readonly blockingFindings: number;
    readonly observations: number;
    readonly bySeverity: Readonly<Record<Severity, number>>;
  };
  readonly coverage: readonly CoverageRow[];
  readonly scenarios: readonly ScenarioResult[];
}
