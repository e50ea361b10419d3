import { AppError } from '../../contract/app-error.js';
import type { Scenario } from './scenario.js';

export interface Shard {
  /** 1-based, as CI matrices count. */
  readonly index: number;
  readonly count: number;
}

/** `--shard 2/3`: the second of three slices. */
export function parseShard(text: string): Shard {
  const match = /^(\d+)\/(\d+)$/.exec(text.trim());
  const index = Number(match?.[1]);
  const count = Number(match?.[2]);
  if (!match || count < 1 || count > 1000 || index < 1 || index > count) {
    throw new AppError('usage', `--shard must be i/n with 1 <= i <= n <= 1000, such as 1/3 (got '${text}')`);
  }
  return { index, count };
}

/**
 * One stable slice of the cases. The scenarios of one file go together (a suite written as a file is read, and
 * often debugged, as one), each generated case on its own; groups are dealt out in the order of their sorted keys,
 * so the same cases give the same slices on every machine, and every case is in exactly one slice.
 */
export function shardCases(cases: readonly Scenario[], shard: Shard): Scenario[] {
  const groupOf = (c: Scenario) => (c.source === 'file' ? `file:${c.file}` : `case:${c.id}`);
  const keys = [...new Set(cases.map(groupOf))].sort();
  const slice = new Map(keys.map((key, i) => [key, (i % shard.count) + 1]));
  return cases.filter((c) => slice.get(groupOf(c)) === shard.index);
}
