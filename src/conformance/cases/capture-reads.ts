import { setOwn } from '../../contract/set-own.js';
import { templateReferences } from './interpolate.js';
import type { Scenario } from './scenario.js';

/** What a case's templates read of one capture: the keys they walk, `true` where a value is read whole. */
export type ReadTree = true | ReadonlyMap<string, ReadTree>;

const known = new WeakMap<Scenario, ReadonlyMap<string, ReadTree>>();

/**
 * For each name a case's templates refer to, the parts of it they read. `repeat.less` with one template only
 * counts a list (or reads a number): of a list it reads the length. Found once per case, when it first captures.
 */
export function captureReads(scenario: Scenario): ReadonlyMap<string, ReadTree> {
  const cached = known.get(scenario);
  if (cached) return cached;
  const reads = new Map<string, ReadTree>();
  const read = (text: string, countsOnly: boolean) => {
    const references = templateReferences(text);
    const whole = references.length === 1 && text.startsWith('{{') && text.endsWith('}}');
    for (const reference of references) {
      if ('problem' in reference) continue;
      const keys = countsOnly && whole ? [...reference.keys, 'length'] : reference.keys;
      reads.set(reference.name, widen(reads.get(reference.name), keys));
    }
  };
  for (const step of scenario.steps) {
    if (!step.templated) continue;
    forEachString([step.path, step.query, step.headers, step.body, step.expect, step.repeat?.each], (text) => read(text, false));
    if (step.repeat?.less !== undefined) read(step.repeat.less, true);
  }
  known.set(scenario, reads);
  return reads;
}

/**
 * The parts of `value` that `reads` names, with the same shape: a list keeps its length (its other items are
 * holes), an object only the keys read. A template finds in it what it finds in `value`, and a case that captured
 * a list of 150,000 pets to count them holds a number, not the list, while it runs.
 */
export function projectReads(value: unknown, reads: ReadTree | undefined): unknown {
  if (reads === true || value === null || typeof value !== 'object') return value;
  const source = value as Record<string, unknown>;
  const copy: Record<string, unknown> = Array.isArray(value) ? ([] as unknown as Record<string, unknown>) : {};
  if (Array.isArray(value)) (copy as unknown as unknown[]).length = value.length;
  for (const [key, below] of reads ?? []) {
    if (Object.hasOwn(source, key)) setOwn(copy, key, projectReads(source[key], below));
  }
  return copy;
}

function widen(tree: ReadTree | undefined, keys: readonly string[]): ReadTree {
  if (tree === true || keys.length === 0) return true;
  const [first, ...rest] = keys as [string, ...string[]];
  const next = new Map(tree ?? []);
  next.set(first, widen(next.get(first), rest));
  return next;
}

function forEachString(value: unknown, visit: (text: string) => void): void {
  if (typeof value === 'string') {
    if (value.includes('{{')) visit(value);
  } else if (Array.isArray(value)) {
    for (const item of value) forEachString(item, visit);
  } else if (value !== null && typeof value === 'object') {
    for (const item of Object.values(value)) forEachString(item, visit);
  }
}
