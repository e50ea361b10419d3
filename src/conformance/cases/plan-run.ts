import { randomInt } from 'node:crypto';
import { type Contract, loadContract } from '../../contract/load-contract.js';
import { type NotMade, notMadeNote } from './generate/case-kind.js';
import { generateCases } from './generate/generate-cases.js';
import { loadScenarios } from './load-scenarios.js';
import type { Scenario } from './scenario.js';
import { selectCases } from './select-cases.js';
import { type Shard, shardCases } from './shard-cases.js';

export interface PlanOptions {
  readonly contract?: string;
  /** Scenario folders, files or globs; each is read, in order, and a file named twice is read once. */
  readonly scenarios: string | readonly string[];
  readonly seed?: number;
  readonly token: string | undefined;
  readonly generate?: readonly string[];
  readonly maxCases?: number | undefined;
  readonly cases?: readonly string[];
  readonly tags: readonly string[];
  readonly skipTags: readonly string[];
  readonly readOnly: boolean;
  readonly shard?: Shard;
  readonly env?: Readonly<Record<string, string | undefined>>;
  /** The scenarios are the default suite, not named by the user: a file using operations the contract lacks is skipped, with a note. */
  readonly defaultScenarios?: boolean;
}

export interface RunPlan {
  readonly contract: Contract;
  readonly seed: number;
  /** The kinds of generated case chosen. */
  readonly kinds: readonly string[];
  /** The cases a run with these options sends (some may still be skipped by --read-only or tags), in order. */
  readonly cases: readonly Scenario[];
  /** What the plan left out and why: scenario files skipped, cases not generated (RunResult hints). */
  readonly notes: readonly string[];
  /** The cases not generated, by operation: the coverage table shows them. */
  readonly notMade: readonly NotMade[];
}

/**
 * The load phase, on its own: the contract, the scenario files and the generated cases, chosen and sliced. Nothing
 * is sent, so `--list` shows exactly what a run would send; any problem is an AppError before the target is touched.
 */
export async function planRun(options: PlanOptions): Promise<RunPlan> {
  const contract = await loadContract(options.contract);
  const seed = options.seed ?? randomInt(0, 2 ** 32 - 1);
  const notes: string[] = [];
  const fromFiles = await loadScenarios(
    options.scenarios,
    contract,
    options.env,
    options.defaultScenarios ? (note) => notes.push(note) : undefined,
  );
  const generated = generateCases(contract, {
    seed,
    token: options.token,
    kinds: options.generate,
    maxCases: options.maxCases,
    readOnly: options.readOnly,
  });
  const chosen = selectCases([...fromFiles, ...generated.cases], options);
  notes.push(...generated.notMade.map(notMadeNote));
  const cases = options.shard ? shardCases(chosen, options.shard) : chosen;
  return { contract, seed, kinds: generated.kinds, cases, notes, notMade: generated.notMade };
}
