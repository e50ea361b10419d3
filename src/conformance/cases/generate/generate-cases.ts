import { AppError } from '../../../contract/app-error.js';
import type { Contract } from '../../../contract/load-contract.js';
import type { Scenario } from '../scenario.js';
import { suggestName } from '../suggest-name.js';
import { inferResources } from '../../../contract/resources/infer-resources.js';
import { bindOwnRecords } from './bind-own-records.js';
import { BUILT_IN_KINDS } from './built-in-kinds.js';
import type { NotMade } from './case-kind.js';
import { createRandom } from './create-random.js';
import { withLocationIds } from './location-ids.js';
import { spareSharedRecords } from './spare-shared-records.js';
import { withEnvelopes } from './with-envelopes.js';
import { unmadeInCase } from './unmade-samples.js';

export interface GenerateOptions {
  readonly seed: number;
  readonly token: string | undefined;
  /** Kind ids; undefined: all. */
  readonly kinds: readonly string[] | undefined;
  /** At most this many cases, taken from every kind in turn so each stays represented. */
  readonly maxCases: number | undefined;
  /** --read-only (default false). */
  readonly readOnly?: boolean;
}

/** The generated phase: every chosen kind over the whole contract, the same cases for the same seed. */
export function generateCases(
  contract: Contract,
  options: GenerateOptions,
): { kinds: string[]; cases: Scenario[]; notMade: NotMade[] } {
  const chosen = options.kinds ?? BUILT_IN_KINDS.map((k) => k.id);
  const known = BUILT_IN_KINDS.map((k) => k.id);
  for (const id of chosen) {
    if (!known.includes(id)) {
      const hint = suggestName(id, known);
      throw new AppError(
        'usage',
        `--generate ${id}: no such kind of case${hint ? ` (did you mean ${hint}?)` : ''}; the kinds: ${known.join(', ')}`,
      );
    }
  }
  // Each kind draws from its own generator, so choosing fewer kinds does not change the values of the others.
  const model = inferResources(contract);
  const readOnly = options.readOnly === true;
  // In the order met, kind by kind: what a kind says it cannot make, and the cases whose records could not be bound.
  const notMade = new Map<string, NotMade | { operationId: string; reason: string; ids: string[] }>();
  const byKind = BUILT_IN_KINDS.filter((kind) => chosen.includes(kind.id)).map((kind) => {
    const random = createRandom(options.seed ^ hash(kind.id));
    for (const said of kind.notMade?.({ contract, token: options.token, random: createRandom(0), readOnly }) ?? [])
      notMade.set(`${said.operationId} ${said.cases} ${said.reason}`, said);
    const spared = spareSharedRecords(kind.id, kind.generate({ contract, token: options.token, random, readOnly }), contract);
    for (const said of spared.notMade) notMade.set(`${said.operationId} ${said.cases} ${said.reason}`, said);
    return spared.kept.flatMap((scenario) => {
      const made = bindOwnRecords(scenario, model, contract, random);
      const bound = 'scenario' in made ? (unmadeInCase(made.scenario) ?? made) : made;
      if ('scenario' in bound) return [withEnvelopes(withLocationIds(bound.scenario, model), model)];
      const key = `${bound.operationId} ${bound.reason}`;
      const known = notMade.get(key) ?? { operationId: bound.operationId, reason: bound.reason, ids: [] };
      if ('ids' in known) known.ids.push(scenario.id);
      notMade.set(key, known);
      return [];
    });
  });
  const cases = options.maxCases === undefined ? byKind.flat() : takeInTurn(byKind, options.maxCases);
  return {
    kinds: chosen.filter((id) => known.includes(id)),
    cases,
    notMade: [...notMade.values()].map((n) =>
      'ids' in n ? { operationId: n.operationId, reason: n.reason, cases: named(n.ids) } : n,
    ),
  };
}

// Never a silent drop: the construct, and the cases it cost (issue 22).
function named(ids: readonly string[]): string {
  const shown = ids.slice(0, 3).join(', ');
  return `${ids.length} case${ids.length === 1 ? '' : 's'} (${shown}${ids.length > 3 ? ', ...' : ''})`;
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
