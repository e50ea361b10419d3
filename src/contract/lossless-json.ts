import { isSafeNumber, parse, stringify } from 'lossless-json';
import { mapLeaves } from './map-leaves.js';
import { setOwn } from './set-own.js';

/**
 * JSON with exact integers. Integers that a double cannot hold exactly become bigint, everything else is a
 * plain number, so the common case costs nothing extra downstream. Plain JSON.parse would round
 * 9007199254740993 to ...992, and the contract's int64 fields (id, categoryId) must keep every digit.
 */
export type JsonValue = null | boolean | number | bigint | string | JsonValue[] | { [key: string]: JsonValue };

const INTEGER_LITERAL = /^-?\d+$/;
const DECIMAL_LITERAL = /^-?(\d+)(?:\.(\d+))?(?:[eE]([+-]?\d+))?$/;

function parseNumber(text: string): number | bigint {
  if (INTEGER_LITERAL.test(text)) {
    // Past 40 digits it is far outside int64 either way, and BigInt() of a megabyte of digits takes half a second:
    // the double (Infinity at worst) keeps the verdict, as exactDecimal does.
    if (text.length > 41) return Number(text);
    return isSafeNumber(text) ? Number(text) : BigInt(text);
  }
  return exactDecimal(text);
}

/**
 * A literal with a fraction or an exponent, judged on its exact value, as JSON Schema does: 1.0, 1e3 and
 * 9223372036854775807.0 are integers (with every digit), 1.5 is not. One whose value is not an integer but whose
 * double is (1e-400 reads as 0, 2.00000000000000000001 as 2) reads as the double next to it on the side of its
 * value, which is not an integer either: an approximation, as every decimal a double cannot hold is, that keeps
 * the verdict an integer field gives it (valid JSON, RFC 8259 §6, never refused as if it were not). Past 2^53,
 * where every double is an integer, it reads as NaN, which no integer field takes.
 */
function exactDecimal(text: string): number | bigint {
  const [, whole = '', fraction = '', exponent = '0'] = DECIMAL_LITERAL.exec(text) ?? [];
  const double = Number(text);
  let digits = `${whole}${fraction}`.replace(/^0+/, '');
  let scale = Number(exponent) - fraction.length;
  if (digits === '') return double; // zero
  // A loop, not /0*$/: that regex retries from every digit, and a 1 MiB literal like 1.000…01 took minutes.
  let end = digits.length;
  while (digits.charCodeAt(end - 1) === ZERO) end--;
  scale += digits.length - end;
  digits = digits.slice(0, end);
  if (scale < 0) return Number.isInteger(double) ? besideInteger(double, digits, scale, text.startsWith('-')) : double;
  // Past 40 digits it is far outside int64 either way; the double keeps that verdict without a huge bigint.
  if (digits.length + scale > 40) return double;
  const exact = BigInt(digits) * 10n ** BigInt(scale) * (text.startsWith('-') ? -1n : 1n);
  return Number.isSafeInteger(double) && BigInt(double) === exact ? double : exact;
}

/**
 * The double beside the integer `double` on the side where the value `digits` × 10^`scale` (not an integer, scale
 * < 0) lies. The value lies strictly between its integer part and the next integer away from zero; its integer
 * part has at most 16 digits below 2^53, so reading it is exact.
 */
function besideInteger(double: number, digits: string, scale: number, negative: boolean): number {
  if (Math.abs(double) >= 2 ** 53) return Number.NaN;
  if (double === 0) return negative ? -Number.MIN_VALUE : Number.MIN_VALUE;
  const integerDigits = digits.length + scale;
  const truncated = (integerDigits > 0 ? Number(digits.slice(0, integerDigits)) : 0) * (negative ? -1 : 1);
  // Rounded to its own integer part, the value is further from zero than the double; rounded up, nearer.
  const awayFromZero = double === truncated;
  BITS[0] = double;
  BIT_PATTERN[0] = (BIT_PATTERN[0] as bigint) + (awayFromZero ? 1n : -1n);
  return BITS[0] as number;
}

// A double's bit pattern, read as an integer: one more is the next double away from zero, one less the next nearer.
const BITS = new Float64Array(1);
const BIT_PATTERN = new BigInt64Array(BITS.buffer);

const ZERO = 48;

/**
 * A number literal a double may read wrong: sixteen digits in a row may be an integer past 2^53; an exponent may
 * hide an integer or round to one, and so may a fraction, but only one of 16 digits or more (a double holds every
 * decimal of 15 significant digits apart from its neighbours, DBL_DIG, so a shorter non-integer never reads as an
 * integer). Without one, JSON.parse gives the same numbers. Only where a JSON value may start (after `[`, `:` or
 * `,`, RFC 8259 §2): hex in a string (a run mark `62e545b9`, a timestamp's `.000Z`) is no candidate. The global
 * flag: parseMarked goes on from the first one. A number that is the whole text is TOP_NUMBER's.
 */
const CANDIDATES = /[[:,]\s*(-?(?:[\d.]{16}|\d+(?:\.\d+)?[eE]))/g;
const TOP_NUMBER = /^\s*-?(?:[\d.]{16}|\d+(?:\.\d+)?[eE])/;

/**
 * Throws a SyntaxError whose message names the position. A repeated key keeps its last value, as JSON.parse,
 * Prism and most servers do (RFC 8259 §4 leaves it to the implementation).
 *
 * Text with no literal that could round is read by JSON.parse, which gives the same value several times faster
 * (a page of 100 pets: most of what reading a response costs); text with one by JSON.parse after parseMarked's
 * swap; text holding the marker's escape, and any text JSON.parse rejects (for lossless-json's wording of the
 * error), by lossless-json.
 */
export function parseJson(text: string): JsonValue {
  return parseText(text, false);
}

/**
 * parseJson for a tree nobody changes once read (an answer as received): one JSON.parse read alone holds no
 * bigint, and toValidatable hands it back as it is, with no walk. A tree that is changed after (a body the mock
 * fills in) must come from parseJson: a bigint put in it later would reach Ajv as it is.
 */
export function parseFixedJson(text: string): JsonValue {
  return parseText(text, true);
}

// The roots of trees parseFixedJson read with JSON.parse alone. Only trees of long texts: adding to a WeakSet costs
// about as much as walking the tree of a short one (an error, a record), and most answers are short.
const withoutBigints = new WeakSet<object>();
const WALKED_CHARS = 2048;

function parseText(text: string, fixed: boolean): JsonValue {
  if (nestsDeeperThan(text, MAX_JSON_DEPTH)) {
    throw new RangeError(`arrays and objects nest more than ${MAX_JSON_DEPTH} deep`);
  }
  try {
    if (!TOP_NUMBER.test(text)) {
      CANDIDATES.lastIndex = 0;
      const first = CANDIDATES.exec(text);
      if (first === null) {
        const value = JSON.parse(text) as JsonValue;
        if (fixed && text.length > WALKED_CHARS && value !== null && typeof value === 'object') withoutBigints.add(value);
        return value;
      }
      if (!text.includes(MARKER_ESCAPED)) return parseMarked(text, first);
    }
  } catch {
    // worded below
  }
  return parse(text, null, { parseNumber, onDuplicateKey: ({ newValue }) => newValue }) as JsonValue;
}

/**
 * Far deeper than any body of the contract (a Pet is two levels). A megabyte of `[` is half a million arrays:
 * JSON.parse builds them all (a gigabyte at four at once) and every walk of the tree then overflows the stack.
 * Parsing refuses such text with a RangeError, as a stack overflow would have been.
 */
export const MAX_JSON_DEPTH = 256;

const QUOTE = 34;
const OPEN_ARRAY = 91;
const OPEN_OBJECT = 123;
const CLOSE_ARRAY = 93;
const CLOSE_OBJECT = 125;

// Every body goes through it. Text that opens no more than `max` arrays and objects in all cannot nest deeper,
// and native searches say so (a page of 100 pets opens 101); only other text is walked, strings skipped.
function nestsDeeperThan(text: string, max: number): boolean {
  if (opensAtMost(text, max)) return false;
  let depth = 0;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code === QUOTE) {
      for (i++; i < text.length; i++) {
        const inside = text.charCodeAt(i);
        if (inside === BACKSLASH) i++;
        else if (inside === QUOTE) break;
      }
    } else if (code === OPEN_ARRAY || code === OPEN_OBJECT) {
      depth++;
      if (depth > max) return true;
    } else if (code === CLOSE_ARRAY || code === CLOSE_OBJECT) {
      depth--;
    }
  }
  return false;
}

function opensAtMost(text: string, max: number): boolean {
  let opens = 0;
  for (const open of ['[', '{']) {
    for (let at = text.indexOf(open); at !== -1; at = text.indexOf(open, at + 1)) if (++opens > max) return false;
  }
  return true;
}

// No text a server sends can make a string that starts with U+0000 unless it writes the escape itself, and such
// text takes the lossless-json path instead. U+0000 alone would send every body holding a NUL there (a name with
// control characters, listed on every page), so the mark goes on with characters no such name has.
const MARKER = '\u0000\u0001#int:';
const MARKER_ESCAPED = '\\u0000\\u0001#int:';

/**
 * JSON.parse speed with exact numbers: each literal a double would change is swapped for a marked string
 * holding its digits, JSON.parse reads the text, and the marked strings become bigints. Throws on anything
 * JSON.parse rejects or parseNumber refuses, and the caller words it.
 *
 * Strings are not tracked: digits inside one after a `,` or `:` that read as a long integer are swapped too
 * (`"a, 9223372036854775808"`), and the swap always
 * breaks the text (its quote ends the string early and leaves a backslash outside any string, which JSON never
 * allows), so JSON.parse throws and lossless-json, which knows strings, reads it instead.
 */
function parseMarked(text: string, first: RegExpExecArray): JsonValue {
  let out = '';
  let copied = 0;
  let marks = 0;
  for (let match: RegExpExecArray | null = first; match !== null; match = CANDIDATES.exec(text)) {
    const start = match.index + match[0].length - (match[1] as string).length;
    let end = start;
    while (end < text.length && isNumberChar(text.charCodeAt(end))) end++;
    CANDIDATES.lastIndex = end;
    const digits = exactDigits(text.slice(start, end));
    if (digits === undefined) continue;
    // A number where a key belongs is invalid JSON that the swap would make valid: lossless-json words it.
    NEXT_IS_COLON.lastIndex = end;
    if (NEXT_IS_COLON.test(text)) throw new SyntaxError('a number where a key belongs');
    out += `${text.slice(copied, start)}"${MARKER_ESCAPED}${digits}"`;
    copied = end;
    marks++;
  }
  if (marks === 0) return JSON.parse(text) as JsonValue;
  const marked = { left: marks };
  return unmark(JSON.parse(out + text.slice(copied)) as JsonValue, marked);
}

const BACKSLASH = 92;
const NEXT_IS_COLON = /\s*:/y;
/**
 * The exact value's digits when it is an integer a double cannot hold; undefined when JSON.parse reads it right.
 * Throws for a value JSON.parse would read as an integer though it is not: the caller parses the slow way.
 */
function exactDigits(token: string): string | undefined {
  // Not a JSON number (leading zeros, a bare sign): left as it is for JSON.parse to refuse.
  if (!JSON_NUMBER.test(token)) return undefined;
  const exact = parseNumber(token);
  if (typeof exact === 'bigint') return String(exact);
  // A non-integer a double would read as an integer reads as the double beside it: lossless-json places it.
  if (!Object.is(exact, Number(token))) throw new RangeError('a number a double reads as an integer');
  return undefined;
}

const JSON_NUMBER = /^-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?$/;

// Digits, sign, point and exponent: what a JSON number literal is made of.
function isNumberChar(code: number): boolean {
  return (code >= 48 && code <= 57) || code === 43 || code === 45 || code === 46 || code === 69 || code === 101;
}

/**
 * The tree is JSON.parse's, fresh and ours: marked strings become bigints where they stand, nothing is copied.
 * The walk ends at the last of the `marked.left` marks (a page of 100 pets with one long id is not walked whole).
 */
function unmark(value: JsonValue, marked: { left: number }): JsonValue {
  if (typeof value === 'string') {
    if (!isMarked(value)) return value;
    marked.left--;
    return BigInt(value.slice(MARKER.length));
  }
  if (value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length && marked.left > 0; i++) {
      const item = value[i] as JsonValue;
      if (item !== null && (typeof item === 'object' || isMarked(item))) value[i] = unmark(item, marked);
    }
    return value;
  }
  for (const key of Object.keys(value)) {
    if (marked.left === 0) break;
    const item = value[key] as JsonValue;
    if (item !== null && (typeof item === 'object' || isMarked(item))) setOwn(value, key, unmark(item, marked));
  }
  return value;
}

function isMarked(value: unknown): value is string {
  return typeof value === 'string' && value.startsWith(MARKER);
}

export function stringifyJson(value: unknown, indent?: number): string {
  // JSON.stringify throws on a bigint, and the throw costs as much as the writing: a request body holding an
  // int64 bound is written with its bigints swapped for marked strings, whose quotes are then taken off.
  const text = holdsBigint(value) ? withBigints(value, indent) : JSON.stringify(value, null, indent);
  if (text === undefined) throw new TypeError('value has no JSON form');
  return text;
}

function holdsBigint(value: unknown): boolean {
  if (typeof value === 'bigint') return true;
  if (value === null || typeof value !== 'object') return false;
  if (Array.isArray(value)) return value.some(holdsBigint);
  for (const key in value) if (holdsBigint((value as Record<string, unknown>)[key])) return true;
  return false;
}

const MARKED_LITERAL = /"\\u0000\\u0001#int:(-?\d+)"/g;

function withBigints(value: unknown, indent: number | undefined): string | undefined {
  let clash = false;
  const text = JSON.stringify(
    value,
    (_key, item: unknown) => {
      if (typeof item === 'bigint') return `${MARKER}${item}`;
      // A string of the value's own that looks marked would lose its quotes: lossless-json writes such a value.
      if (typeof item === 'string' && item.startsWith(MARKER)) clash = true;
      return item;
    },
    indent,
  );
  if (!clash) return text?.replace(MARKED_LITERAL, '$1');
  return stringify(value, null, indent, [{ test: (v) => typeof v === 'bigint', stringify: (v) => String(v) }]);
}

const INT64_MIN = -(2n ** 63n);
const INT64_MAX = 2n ** 63n - 1n;
/** The largest double below 2^63: stands in for in-range int64 values that round up to 2^63. */
const LARGEST_DOUBLE_BELOW_2_63 = 2 ** 63 - 1024;

/**
 * Ajv validates numbers, not bigints. Each bigint is replaced by a number that keeps its verdict: an
 * integer inside int64 stays an integer inside int64, one outside becomes 2^64 (or -2^64), which the
 * int64 format rejects. Returns the same object when there is no bigint in it.
 */
export function toValidatable(value: unknown): unknown {
  if (typeof value === 'object' && value !== null && withoutBigints.has(value)) return value;
  return mapLeaves(value, (leaf) => (typeof leaf === 'bigint' ? bigintStandIn(leaf) : leaf));
}

function bigintStandIn(value: bigint): number {
  if (value < INT64_MIN) return -(2 ** 64);
  if (value > INT64_MAX) return 2 ** 64;
  const approx = Number(value);
  return approx >= 2 ** 63 ? LARGEST_DOUBLE_BELOW_2_63 : approx;
}

/** int64 range check on the stand-ins above: -2^63 is a double exactly, 2^63 is the first value outside. */
export function isInt64Number(value: number): boolean {
  return Number.isInteger(value) && value >= -(2 ** 63) && value < 2 ** 63;
}

/** Parses a decimal integer string (a path or query value) keeping every digit. */
export function parseIntegerText(text: string): number | bigint | undefined {
  if (!INTEGER_LITERAL.test(text)) return undefined;
  const n = Number(text);
  return Number.isSafeInteger(n) ? n : BigInt(text);
}
