import type { Operation } from '../../contract/operation.js';
import type { Exchange } from '../exchange.js';
import type { Step } from '../scenario.js';
import type { Severity } from '../severity.js';

export interface CheckSettings {
  readonly timeoutMs: number;
  readonly maxResponseTimeMs: number;
}

/** Everything a check may read: plain values, no I/O. */
export interface CheckInput {
  readonly operation: Operation;
  readonly step: Step;
  readonly exchange: Exchange;
  readonly settings: CheckSettings;
}

/** What a check found: what was received and what the contract documents (schemathesis's "Received / Documented"). */
export interface Problem {
  readonly title: string;
  readonly received: string;
  readonly documented: string;
}

/** One property of the contract. A check returns at most one problem per exchange. */
export interface Check {
  /** kebab-case, stable: reports, tests and people refer to it. */
  readonly id: string;
  readonly severity: Severity;
  /** The clause of the service description the check enforces. */
  readonly clause: string;
  /** False for checks that would fail a server for an answer the contract leaves open (steps with `observe`). */
  readonly onObservations: boolean;
  readonly check: (input: CheckInput) => Problem | undefined;
}
