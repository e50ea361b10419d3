import { setOwn } from '../../contract/set-own.js';
import { mockError } from '../error-codes.js';

// Deeper than any record a contract describes; a body nested past it would otherwise exhaust the stack (a 500).
const MAX_DEPTH = 256;

/**
 * RFC 7396 §2 MergePatch: an object patch merges into the target member by member, `null` removes a member, and
 * anything else (an array, a scalar) replaces the target whole. Returns a new value; neither input changes.
 */
export function mergePatch(target: unknown, patch: unknown, depth = 0): unknown {
  if (!isObject(patch)) return patch;
  if (depth > MAX_DEPTH) throw mockError('validation_failed', `body: the merge patch is nested deeper than ${MAX_DEPTH} levels`);
  const result: Record<string, unknown> = isObject(target) ? { ...target } : {};
  for (const [name, value] of Object.entries(patch)) {
    if (value === null) delete result[name];
    else setOwn(result, name, mergePatch(Object.hasOwn(result, name) ? result[name] : undefined, value, depth + 1));
  }
  return result;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
