import { show } from '../../contract/judge/show-value.js';

/**
 * Where `actual` fails to contain `expected`, or undefined when it does: objects by key (extra keys are
 * allowed, the contract permits extra fields), arrays element by element with the same length, integers
 * compared exactly whether they arrived as number or bigint (int64 ids above 2^53), strings as text (sameText).
 */
export function subsetMismatch(actual: unknown, expected: unknown, at = 'body'): string | undefined {
  return containsSubset(actual, expected) ? undefined : whereNot(actual, expected, at);
}

/**
 * subsetMismatch's verdict alone, without a path or a message: a list page compares every pet it lists with what
 * its create answered, and nearly all of them match.
 */
export function containsSubset(actual: unknown, expected: unknown): boolean {
  if (typeof expected === 'number' && typeof actual === 'number' && Number.isInteger(expected)) return expected === actual;
  if (isInteger(expected) && isInteger(actual)) return BigInt(expected) === BigInt(actual);
  if (Array.isArray(expected)) {
    if (!Array.isArray(actual) || actual.length !== expected.length) return false;
    for (let i = 0; i < expected.length; i++) if (!containsSubset(actual[i], expected[i])) return false;
    return true;
  }
  if (expected !== null && typeof expected === 'object') {
    if (actual === null || typeof actual !== 'object' || Array.isArray(actual)) return false;
    for (const key in expected) {
      if (!Object.hasOwn(expected, key)) continue;
      if (!Object.hasOwn(actual, key)) return false;
      if (!containsSubset((actual as Record<string, unknown>)[key], (expected as Record<string, unknown>)[key])) return false;
    }
    return true;
  }
  return typeof expected === 'string' && typeof actual === 'string' ? sameText(actual, expected) : Object.is(actual, expected);
}

/**
 * Two choices a server may make where the contract is silent on them. Canonically equivalent text is the same text
 * (Unicode §3.7 C6: `cafe\u0301` stored as NFC `café`). And text may be kept without the whitespace around it, as
 * Django REST framework, Laravel and pydantic's strip_whitespace do by default. Anything else, a cut, an escape or a
 * changed character (inside the text too), is another value.
 */
function sameText(actual: string, expected: string): boolean {
  if (actual === expected) return true;
  const kept = actual.normalize('NFC');
  if (kept === expected.normalize('NFC')) return true;
  const trimmed = expected.trim();
  return trimmed !== expected && kept === trimmed.normalize('NFC');
}

function whereNot(actual: unknown, expected: unknown, at: string): string | undefined {
  if (isInteger(expected) && isInteger(actual)) {
    return BigInt(expected) === BigInt(actual) ? undefined : `${at}: expected ${show(expected)}, received ${show(actual)}`;
  }
  if (Array.isArray(expected)) {
    if (!Array.isArray(actual)) return `${at}: expected an array, received ${show(actual)}`;
    if (actual.length !== expected.length) return `${at}: expected ${expected.length} items, received ${actual.length}`;
    for (let i = 0; i < expected.length; i++) {
      const mismatch = whereNot(actual[i], expected[i], `${at}[${i}]`);
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
      const mismatch = whereNot((actual as Record<string, unknown>)[key], value, `${at}.${key}`);
      if (mismatch) return mismatch;
    }
    return undefined;
  }
  return containsSubset(actual, expected) ? undefined : `${at}: expected ${show(expected)}, received ${show(actual)}`;
}

function isInteger(value: unknown): value is number | bigint {
  return typeof value === 'bigint' || Number.isInteger(value);
}
