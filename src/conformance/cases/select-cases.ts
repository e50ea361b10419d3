import { AppError } from '../../contract/app-error.js';
import type { Scenario } from './scenario.js';
import { suggestName } from './suggest-name.js';

interface Selection {
  readonly cases?: readonly string[];
  readonly tags: readonly string[];
  readonly skipTags: readonly string[];
  readonly readOnly: boolean;
}

/**
 * The cases a run sends: with --case, those whose id or name matches one of its globs (a case id reruns one
 * case alone). A --case or tag that matches nothing is a usage error: a typo must neither turn a run green by
 * running nothing nor run what was meant to be skipped (`--skip-tags mutatin` against production).
 */
export function selectCases(all: readonly Scenario[], selection: Selection): Scenario[] {
  const patterns = selection.cases ?? [];
  const chosen =
    patterns.length === 0 ? [...all] : all.filter((c) => patterns.some((p) => matches(p, c.id) || matches(p, c.name)));
  for (const pattern of patterns) {
    if (!all.some((c) => matches(pattern, c.id) || matches(pattern, c.name))) {
      const hint = suggestName(
        pattern,
        all.map((c) => c.id),
      );
      throw new AppError('usage', `--case ${pattern}: no case has this id or name${hint ? ` (did you mean ${hint}?)` : ''}`);
    }
  }
  const known = new Set(all.flatMap((s) => s.tags));
  for (const [flag, tags] of [
    ['--tags', selection.tags],
    ['--skip-tags', selection.skipTags],
  ] as const) {
    const unknown = tags.find((tag) => !known.has(tag));
    if (unknown === undefined) continue;
    const hint = suggestName(unknown, known);
    throw new AppError(
      'usage',
      `${flag} ${unknown}: no case has this tag${hint ? ` (did you mean ${hint}?)` : ''}; the tags: ${[...known].sort().join(', ')}`,
    );
  }
  if (chosen.every((c) => skipReason(c, selection) !== undefined)) {
    throw new AppError(
      'usage',
      'nothing to run: the chosen --case, --tags, --skip-tags, --read-only and --generate leave no case',
    );
  }
  return chosen;
}

/** Why --read-only, --tags or --skip-tags leave a chosen case out, or undefined when it runs. */
export function skipReason(scenario: Scenario, selection: Selection): string | undefined {
  if (selection.readOnly && scenario.tags.includes('mutating')) return '--read-only: the case changes the target';
  if (selection.tags.length > 0 && !scenario.tags.some((t) => selection.tags.includes(t))) {
    return `--tags ${selection.tags.join(',')}: not tagged`;
  }
  const skippedTag = scenario.tags.find((t) => selection.skipTags.includes(t));
  return skippedTag ? `--skip-tags: tagged ${skippedTag}` : undefined;
}

/** A glob over one name: `*` any run of characters, `?` one; everything else literal. Linear: no backtracking regex. */
function matches(pattern: string, text: string): boolean {
  let p = 0;
  let t = 0;
  let star = -1;
  let resume = 0;
  while (t < text.length) {
    if (p < pattern.length && (pattern[p] === '?' || pattern[p] === text[t])) {
      p++;
      t++;
    } else if (p < pattern.length && pattern[p] === '*') {
      star = p++;
      resume = t;
    } else if (star !== -1) {
      p = star + 1;
      t = ++resume;
    } else return false;
  }
  while (pattern[p] === '*') p++;
  return p === pattern.length;
}
