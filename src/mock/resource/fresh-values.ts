import { randomBytes, randomInt, randomUUID } from 'node:crypto';
import type { JsonSchema } from '../../contract/operation.js';
import { freshString } from '../../contract/sample/string-sample.js';

/** Makes a new value for a field on each call. */
export type FreshValue = () => unknown;

// Enough random characters that two answers of a mock never share an id: about 48 bits.
const RANDOM_BITS = 48;

/**
 * The ways to make a fresh id for a field, best first: the example's own shape (`msg_01HZY3K6T9` gives `msg_`
 * and ten new digits or capitals), a uuid for `format: uuid`, a draw from the pattern, else a uuid for a text without
 * example, a whole number for a
 * numeric id. The caller keeps the first whose value the contract's schema takes.
 */
export function freshIds(schema: JsonSchema | undefined, example: unknown): FreshValue[] {
  const uuid: FreshValue = randomUUID;
  if (schema?.type === 'integer' || schema?.type === 'number') return [wholeNumber(schema)];
  if (schema?.format === 'uuid') return [uuid];
  // A pattern without an example (`^ord_[0-9a-z]{8}$`): drawn from the pattern, the way the runner makes unique keys.
  if (typeof example !== 'string') return schema?.pattern === undefined ? [uuid] : [fromPattern(schema), uuid];
  return [likeExample(example, true), likeExample(example, false), uuid];
}

function fromPattern(schema: JsonSchema): FreshValue {
  return () => freshString(schema, '', randomBytes(8).toString('hex'), (n) => randomInt(n));
}

/**
 * `now` as a field's example writes it: without fractions of a second when the example has none
 * (`2026-11-22T12:00:00Z`), else as toISOString does.
 */
export function timestampLike(example: unknown): FreshValue {
  const whole = typeof example === 'string' && !/\.\d+/.test(example);
  return () => {
    const text = new Date().toISOString();
    return whole ? `${text.slice(0, 19)}Z` : text;
  };
}

// RFC 3339 §5.6 date-time, the form a field without `format` shows in its example when it holds one.
const DATE_TIME = /^\d{4}-\d{2}-\d{2}[Tt ]\d{2}:\d{2}:\d{2}(\.\d+)?([Zz]|[+-]\d{2}:\d{2})$/;

/** A field the server stamps with the time: `format: date-time`, or no format and an example of that form. */
export function isTimestamp(schema: JsonSchema | undefined, example: unknown): boolean {
  if (schema?.type !== 'string') return false;
  return schema.format === 'date-time' || (schema.format === undefined && typeof example === 'string' && DATE_TIME.test(example));
}

// `msg_01HZY3K6T9`: the text up to its last separator is kept, the characters after it are drawn anew from the
// classes they use (hex stays hex), as many, or more when that many would repeat too soon.
function likeExample(example: string, lengthen: boolean): FreshValue {
  const tail = /[A-Za-z0-9]*$/.exec(example)?.[0] ?? '';
  const prefix = example.slice(0, example.length - tail.length);
  const alphabet = alphabetOf(tail);
  const least = Math.ceil(RANDOM_BITS / Math.log2(alphabet.length));
  const length = lengthen ? Math.max(tail.length, least) : Math.max(tail.length, 1);
  return () => {
    const bytes = randomBytes(length);
    let text = prefix;
    for (const byte of bytes) text += alphabet[byte % alphabet.length];
    return text;
  };
}

const DIGITS = '0123456789';
const LOWER = 'abcdefghijklmnopqrstuvwxyz';
const UPPER = LOWER.toUpperCase();

function alphabetOf(tail: string): string {
  if (/^[0-9a-f]+$/.test(tail) && /[a-f]/.test(tail)) return `${DIGITS}abcdef`;
  if (/^[0-9A-F]+$/.test(tail) && /[A-F]/.test(tail)) return `${DIGITS}ABCDEF`;
  const classes = [DIGITS, LOWER, UPPER].filter((chars) => [...tail].some((c) => chars.includes(c)));
  return classes.length === 0 ? `${DIGITS}${LOWER}` : classes.join('');
}

// Within the schema's bounds, and within 32 bits so that any client's integer type holds it.
function wholeNumber(schema: JsonSchema): FreshValue {
  const low = Math.max(1, Math.ceil(schema.minimum ?? 1));
  const high = Math.min(2 ** 31 - 1, Math.floor(schema.maximum ?? 2 ** 31 - 1));
  return () => (high > low ? randomInt(low, high + 1) : low);
}
