import { AppError } from '../../contract/app-error.js';
import type { Contract } from '../../contract/load-contract.js';
import type { Scenario } from '../scenario.js';
import { suggestName } from '../suggest-name.js';
import { BUILT_IN_KINDS } from './built-in-kinds.js';
import { createRandom } from './create-random.js';

export interface GenerateOptions {
  readonly seed: number;
  readonly token: string | undefined;
  /** Kind ids; undefined: all. */
  readonly kinds: readonly string[] | undefined;
  /** At most this many cases, taken from every kind in turn so each stays represented. */
  readonly maxCases: number | undefined;
}

/** The generated phase: every chosen kind over the whole contract, the same cases for the same seed. */
export function generateCases(contract: Contract, options: GenerateOptions): { kinds: string[]; cases: Scenario[] } {
  const chosen = options.kinds ?? BUILT_IN_KINDS.map((k) => k.id);
  const known = BUILT_IN_KINDS.map((k) => k.id);
  for (const id of chosen) {
    if (!known.includes(id)) {
      const hint = suggestName(id, known);
      throw new AppError('usage', `--generate ${id}: no such kind of case${hint ? ` (did you mean ${hint}?)` : ''}; the kinds: ${known.join(', ')}`);
    }
  }
  // Each kind draws from its own generator, so choosing fewer kinds does not change the values of the others.
  const byKind = BUILT_IN_KINDS.filter((kind) => chosen.includes(kind.id)).map((kind) =>
    kind.generate({ contract, token: options.token, random: createRandom(options.seed ^ hash(kind.id)) }),
  );
  const cases = options.maxCases === undefined ? byKind.flat() : takeInTurn(byKind, options.maxCases);
  return { kinds: chosen.filter((id) => known.includes(id)), cases };
}

function takeInTurn(lists: readonly Scenario[][], max: number): Scenario[] {
  const taken: Scenario[] = [];
  for (let i = 0; taken.length < max && lists.some((list) => i < list.length); i++) {
    for (const list of lists) if (i < list.length && taken.length < max) taken.push(list[i] as Scenario);
  }
  return taken;
}

function hash(text: string): number {
  let h = 2166136261;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 16777619);
  return h >>> 0;
}
