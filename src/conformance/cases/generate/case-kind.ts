import type { Contract } from '../../../contract/load-contract.js';
import type { Scenario } from '../scenario.js';
import type { Random } from './create-random.js';

/** What every kind of case reads: the contract, a seeded generator, and the run's key (to alter it). */
export interface GenerateContext {
  readonly contract: Contract;
  readonly random: Random;
  /** The run's key: auth cases derive wrong keys from it (a prefix, another letter case). */
  readonly token: string | undefined;
  /** --read-only: a kind may send a read another way rather than after a create of its own, which would be skipped. */
  readonly readOnly: boolean;
}

/** One kind of case the runner derives from the contract; a new kind is a new row in BUILT_IN_KINDS. */
export interface CaseKind {
  /** kebab-case, stable: `--generate <id>` and case ids use it. */
  readonly id: string;
  /** One line for --help and docs/reference/case-kinds.md. */
  readonly description: string;
  readonly generate: (context: GenerateContext) => Scenario[];
  /** What the kind could not generate for, each naming the construct and the cases not made. */
  readonly notMade?: (context: GenerateContext) => NotMade[];
}

/**
 * Cases not generated, and why (issue 22: never a silent drop): shown as a hint, and in the coverage table beside
 * the operation they would have exercised.
 */
export interface NotMade {
  readonly operationId: string;
  /** Which cases: `effects cases of /things (created-readable, ...)`, `2 cases (valid-bodies/replaceThing/...)`. */
  readonly cases: string;
  readonly reason: string;
}

/** A NotMade as one line of the run's hints. */
export function notMadeNote(notMade: NotMade): string {
  return `Not generated: ${notMade.cases}: ${notMade.reason}.`;
}
