import { stringifyJson } from '../contract/lossless-json.js';

/**
 * Where `actual` fails to contain `expected`, or undefined when it does: objects by key (extra keys are
 * allowed, the contract permits extra fields), arrays element by element with the same length, integers
 * compared exactly whether they arrived as number or bigint (int64 ids above 2^53).
 */
export function subsetMismatch(actual: unknown, expected: unknown, at = 'body'): string | undefined {
  if (isInteger(expected) && isInteger(actual)) {
    return BigInt(expected) === BigInt(actual) ? undefined : `${at}: expected ${show(expected)}, received ${show(actual)}`;
  }
  if (Array.isArray(expected)) {
    if (!Array.isArray(actual)) return `${at}: expected an array, received ${show(actual)}`;
    if (actual.length !== expected.length) return `${at}: expected ${expected.length} items, received ${actual.length}`;
    for (let i = 0; i < expected.length; i++) {
      const mismatch = subsetMismatch(actual[i], expected[i], `${at}[${i}]`);
      if (mismatch) return mismatch;
    }
    return undefined;
  }
  if (expected !== null && typeof expected === 'object') {
    if (actual === null || typeof actual !== 'object' || Array.isArray(actual)) {
      return `${at}: expected an object, received ${show(actual)}`;
    }
    for (const [key, value] of Object.entries(expected)) {
      if (!Object.hasOwn(actual, key)) return `${at}.${key}: missing (expected ${show(value)})`;
      const mismatch = subsetMismatch((actual as Record<string, unknown>)[key], value, `${at}.${key}`);
      if (mismatch) return mismatch;
    }
    return undefined;
  }
  return Object.is(actual, expected) ? undefined : `${at}: expected ${show(expected)}, received ${show(actual)}`;
}

function isInteger(value: unknown): value is number | bigint {
  return typeof value === 'bigint' || Number.isInteger(value);
}

/** A value as JSON for people: int64 ids as their exact digits (not strings), nothing as `(nothing)`. */
export function show(value: unknown): string {
  if (value === undefined) return '(nothing)';
  try {
    return stringifyJson(value);
  } catch {
    return String(value);
  }
}
