import type { JsonSchema } from '../../../contract/operation.js';

// Strings a pattern is likely to refuse, tried in turn: one of them is what an invalid case sends.
const CANDIDATES = ['', ' ', '!', 'conformance-unknown', '0', 'Z', '-', 'a b'];

/**
 * Values for a string with a `pattern` (ECMA-262, with the u flag, as Ajv reads it): the contract's own example
 * or default where it matches, and a string the pattern refuses. A pattern that is no regular expression here, or
 * that every candidate matches, gives nothing for that side.
 */
export function patternValues(schema: JsonSchema): {
  readonly matching: string | undefined;
  readonly refused: string | undefined;
} {
  const pattern = schema.pattern;
  if (schema.type !== 'string' || pattern === undefined || schema.enum) return { matching: undefined, refused: undefined };
  let regex: RegExp;
  try {
    regex = new RegExp(pattern, 'u');
  } catch {
    return { matching: undefined, refused: undefined };
  }
  const fits = (value: unknown): value is string =>
    typeof value === 'string' &&
    regex.test(value) &&
    (schema.maxLength === undefined || [...value].length <= schema.maxLength) &&
    [...value].length >= (schema.minLength ?? 0);
  const matching = [schema.example, ...(schema.examples ?? []), schema.default].find(fits);
  return { matching, refused: CANDIDATES.find((candidate) => !regex.test(candidate)) };
}
