import { detachText } from './detach-text.js';

/** Replaces the key (and any other secret it was given), and anything that reveals most of it, with `***`. */
export type Redactor = (text: string) => string;

export const REDACTED = '***';

/**
 * Secrets shorter than this are never looked for by value, only masked where they are sent (mask-credentials.ts).
 * A short key is mostly a placeholder or a word (`test`, `pet`, `id`, `failure`), and a word is found in ordinary
 * text: blanking it cut ids (`list***s`), numbers (`2.***`) and markup (`<***suites>`). Eight characters is where
 * a key stops being a word: eight random characters of the base64 alphabet are 48 bits, which a report of a few
 * megabytes holds by chance about once in ten million runs; and from eight characters on, a key is already
 * matched whole (minimumRun) as before.
 */
export const SHORTEST_REDACTED_SECRET = 8;

/**
 * The rule: a run of at least `minimumRun(key)` consecutive characters of the key (12 for most keys, half of a
 * long one), compared case-insensitively, is the key. That covers the key as sent, the key minus a character,
 * the key inside `Basic <key>`, `Token <key>` or `Bearer <key> junk`, and the key in swapped case. The check is
 * made on decoded values, never only on the raw text a target sent:
 * - inside a JSON string literal, after its escapes (`\/`, `\uXXXX`) are decoded (RFC 8259 §7);
 * - inside a token with backslash escapes outside any string literal (`\uXXXX`, `\xHH` in a header value);
 * - inside a percent-encoded token, after decoding, whatever the case of its hex digits (RFC 3986 §2.1);
 * - inside a base64 or base64url token, after decoding (RFC 4648 §4, §5) from each of the four alignments, so a
 *   prefix (`sk-`, `x_`) does not hide it: the key's base64 form, and the `Basic` / `Bearer` credentials a
 *   target may echo encoded;
 * - inside a run of hex digits, after decoding;
 * - inside what one of these decodings gives, decoded once more (the key percent-encoded twice, base64 of its
 *   base64).
 * A redacted JSON string stays a valid JSON string, so a redacted body still parses. A run of digits inside a
 * longer number is part of that number (an id, a count, a time), not the key: it is left alone. Secrets under
 * SHORTEST_REDACTED_SECRET characters are not looked for at all. Every scan is linear, with
 * no pattern that could backtrack or overflow the regexp stack on a 10 MiB run of one character.
 */
export function createRedactor(
  secrets: string | readonly (string | undefined)[] | undefined,
  options: { readonly pieces?: boolean } = {},
): Redactor {
  const keys = [secrets ?? []].flat().filter((key): key is string => key !== undefined && key.length >= SHORTEST_REDACTED_SECRET);
  if (keys.length === 0) return (text) => text;
  const runOf = (key: string) => (options.pieces ? Math.min(PIECE, key.length) : minimumRun(key));
  const run = Math.min(...keys.map(runOf));
  const grams = new Set(keys.flatMap((key) => keyGrams(key.toLowerCase(), runOf(key))));
  const anchors = keys.map((key) => anchorOf(key.toLowerCase(), runOf(key)));
  // Most text holds no run of the key at all: one scan for what every run of it must contain says so.
  const rangesIn = (lower: string) => (anchors.some((anchor) => lower.includes(anchor)) ? plainRanges(lower, grams) : NONE);
  // The same scan without lower-casing the text first (a third of redacting a list of pets): a pattern that
  // matches what lower-cases to an anchor. Only for anchors of ASCII; others, and the empty one, lower-case.
  const anchorPatterns = anchors.map(anchorPattern);
  const mayHoldRun = anchorPatterns.every((pattern) => pattern !== undefined)
    ? (text: string) => anchorPatterns.some((pattern) => (pattern as RegExp).test(text))
    : () => true;
  const redactPlain = (text: string) => (mayHoldRun(text) ? redactRanges(text, rangesIn(lowerInPlace(text))) : text);
  // Only tokens long enough to encode a run are decoded: `run` bytes take ceil(4·run/3) base64 characters before
  // any `=` (the padding is not in the alphabet a token is found by: an 8-character key is 11 of them and `=`).
  const shortestEncoded = Math.ceil((run * 4) / 3);
  // Where a run long enough stands: a fixed length, found natively and without backtracking.
  const longRun = new RegExp(`[A-Za-z0-9+/_-]{${shortestEncoded}}`, 'g');
  // What decoding gives is looked through once more, decoded (the key percent-encoded twice, base64 of its
  // base64), and no further: each level is four decodings of a token, and nothing sends the key deeper.
  const reveals = (decoded: string, depth: number): boolean =>
    decoded.length >= run &&
    ((mayHoldRun(decoded) && rangesIn(lowerInPlace(decoded)).length > 0) ||
      (depth < NESTED_DECODINGS && encodedWithin(decoded, depth + 1)));
  // Every encoding of a key of visible ASCII is visible ASCII: in what a decoding gives (mostly bytes no encoding
  // uses, when the token was no base64), only the runs of it long enough to hold a run of the key are looked
  // through. Looking through all of it made a 10,000-character random name cost about three times as much.
  const visibleKeys = keys.every((key) => VISIBLE_ASCII.test(key));
  // Made once: a pattern V8 has run often is compiled to machine code, a new one is interpreted. someRun sets
  // lastIndex before every search, so nested uses of one pattern do not disturb each other.
  const visibleRun = new RegExp(`[\\x21-\\x7e]{${run}}`, 'g');
  const hexRun = new RegExp(`[0-9A-Fa-f]{${2 * run}}`, 'g');
  const encodedWithin = (decoded: string, depth: number): boolean =>
    visibleKeys
      ? someRun(decoded, visibleRun, VISIBLE_CHARS, (from, to) => {
          const part = decoded.slice(from, to);
          return redactTokens(part, depth) !== part;
        })
      : redactTokens(decoded, depth) !== decoded;
  // The same tokens come back in every answer (application/json, error codes, a long name sent and then listed):
  // each is decoded once. Long ones too, within a budget of characters: a 10,000-character token is four decodings
  // of 7,500 bytes, against one hash and one comparison of it.
  const verdicts = new Map<string, boolean>();
  let rememberedChars = 0;
  const revealsEncoded = (token: string, depth: number) => {
    const decodes = () => anyDecoding(token, shortestEncoded, hexRun, (decoded) => reveals(decoded, depth));
    // Only the text's own tokens are remembered: a nested one is met only inside a token already remembered.
    if (depth > 0) return decodes();
    let verdict = verdicts.get(token);
    if (verdict === undefined) {
      verdict = decodes();
      if (token.length <= REMEMBERED_TOKEN_CHARS) {
        if (verdicts.size >= REMEMBERED_TOKENS || rememberedChars + token.length > REMEMBERED_TOKENS_CHARS) {
          verdicts.clear();
          rememberedChars = 0;
        }
        rememberedChars += token.length;
        // The token is a slice of the text it was found in: kept as it is, it would keep all of that text alive.
        verdicts.set(detachText(token), verdict);
      }
    }
    return verdict;
  };
  const revealsEscaped = (token: string, depth: number) =>
    (token.includes('%') && reveals(percentDecode(token), depth)) ||
    (token.includes('\\') && reveals(unescapeBackslashes(token), depth));
  function redactTokens(text: string, depth: number): string {
    const unescaped = replaceEscapedTokens(text, (token) => (revealsEscaped(token, depth) ? REDACTED : token));
    return redactRanges(
      unescaped,
      base64Tokens(unescaped, longRun, (token) => revealsEncoded(token, depth)),
    );
  }
  // Plain runs first: a key that itself holds `%` or `=` would otherwise lose only the part after them to a
  // decoded token, and what stands before that part would be too short a run to be seen.
  const redactDecoded = (text: string) => redactTokens(redactPlain(text), 0);
  // Header names and values, and short bodies, recur from answer to answer: each is redacted once.
  const remembered = new Map<string, string>();
  return (text) => {
    // No encoding makes a run of the key shorter than the run itself.
    if (text.length < run) return text;
    if (text.length > REMEMBERED_TEXT_CHARS) return redactText(text);
    const known = remembered.get(text);
    if (known !== undefined) return known;
    const redacted = redactText(text);
    if (remembered.size >= REMEMBERED_TEXTS) remembered.clear();
    // Either may be a slice of a larger text (a header of a 10 MiB answer): kept as they are, they would keep it.
    const key = detachText(text);
    remembered.set(key, redacted === text ? key : detachText(redacted));
    return redacted;
  };

  function redactText(text: string): string {
    const literals = text.includes('\\')
      ? replaceEscapedLiterals(text, (literal) => {
          const decoded = decodeJsonString(literal);
          if (decoded === undefined) return literal;
          const redacted = redactDecoded(decoded);
          return redacted === decoded ? literal : JSON.stringify(redacted);
        })
      : text;
    return redactDecoded(literals);
  }
}

/**
 * With `pieces`, a run of this many characters of a key already counts: for text quoted from an answer that held
 * the key, where quoting may have cut it (a value shown by its first 500 characters), so that what is left of it
 * at the cut is blanked too. Too short a run for text in general: it would blank ordinary words.
 */
const PIECE = 4;

const NESTED_DECODINGS = 1;
const VISIBLE_ASCII = /^[\x21-\x7e]+$/;
const REMEMBERED_TOKENS = 1024;
const REMEMBERED_TEXTS = 4096;
const REMEMBERED_TEXT_CHARS = 256;
const REMEMBERED_TOKEN_CHARS = 64 * 1024;
const REMEMBERED_TOKENS_CHARS = 1024 * 1024;
const NONE: readonly [number, number][] = [];

/**
 * What every run of `run` characters of the key contains: its middle, where all runs overlap (a 16-character key,
 * runs of 12: characters 4 to 11). A key whose runs share no character has no anchor ('', in every text).
 */
function anchorOf(key: string, run: number): string {
  return 2 * run > key.length ? key.slice(key.length - run, run) : '';
}

/**
 * A pattern that finds in a text what lowerInPlace would turn into `anchor`: each letter in either case, and the
 * two characters outside ASCII that lower-case to an ASCII letter (İ to i, the Kelvin sign to k;
 * LOWERS_TO_ASCII, checked against every code point by the redactor's tests). Undefined for an anchor outside
 * ASCII or an empty one.
 */
function anchorPattern(anchor: string): RegExp | undefined {
  if (anchor === '' || !ASCII.test(anchor)) return undefined;
  let source = '';
  for (const char of anchor) {
    const upper = char.toUpperCase();
    const others = LOWERS_TO_ASCII[char] ?? '';
    source +=
      upper === char && others === ''
        ? escapeForPattern(char)
        : `[${escapeForPattern(char)}${upper === char ? '' : upper}${others}]`;
  }
  return new RegExp(source);
}

const ASCII = /^[\0-\x7f]*$/;

/** The characters outside ASCII whose lower case (by lowerInPlace) is an ASCII character. */
export const LOWERS_TO_ASCII: Readonly<Record<string, string>> = { i: '\u0130', k: '\u212a' };

function escapeForPattern(char: string): string {
  return /[\\^$.*+?()[\]{}|/-]/.test(char) ? `\\${char}` : char;
}

/**
 * The base64 and base64url tokens (runs of the alphabet, with up to two `=` after them) at least as long as
 * `longRun` matches that `revealing` flags, as ranges. Each run `longRun` finds is walked to its ends, so each
 * character is read once.
 */
function base64Tokens(text: string, longRun: RegExp, revealing: (token: string) => boolean): [number, number][] {
  const ranges: [number, number][] = [];
  longRun.lastIndex = 0;
  for (let match = longRun.exec(text); match !== null; match = longRun.exec(text)) {
    let start = match.index;
    while (start > 0 && isBase64Char(text.charCodeAt(start - 1))) start--;
    NOT_BASE64.lastIndex = match.index + match[0].length;
    const runEnd = NOT_BASE64.exec(text)?.index ?? text.length;
    let end = runEnd;
    while (end < text.length && end - runEnd < 2 && text.charCodeAt(end) === EQUALS) end++;
    if (revealing(text.slice(start, end))) ranges.push([start, end]);
    longRun.lastIndex = end;
  }
  return ranges;
}

/**
 * Whether `test` holds for what an encoded token may hold: its base64 decoding from each of the four alignments
 * (a prefix such as `sk-` is part of the run and would shift every byte), and the decoding of each long run of
 * hex digits in it, from both alignments. One decoding at a time: a 10 MiB token is four of them.
 */
function anyDecoding(token: string, shortest: number, hexRun: RegExp, test: (decoded: string) => boolean): boolean {
  for (let skip = 0; skip < 4 && token.length - skip >= shortest; skip++) if (test(base64Decode(token.slice(skip)))) return true;
  // A run encodes a run of the key only if it has two hex digits for each of its characters.
  return someRun(token, hexRun, HEX_CHARS, (from, to) => {
    for (const at of [from, from + 1]) if (test(Buffer.from(token.slice(at, to), 'hex').toString('latin1'))) return true;
    return false;
  });
}

/**
 * Whether `test` holds for one of the maximal runs of characters of `table` at least as long as `longRun` (a
 * global pattern of a fixed length, so that it cannot backtrack) matches. The runs are found natively and walked to
 * their ends, so each character is read once.
 */
function someRun(text: string, longRun: RegExp, table: Uint8Array, test: (from: number, to: number) => boolean): boolean {
  for (let at = 0; at < text.length; ) {
    longRun.lastIndex = at;
    const match = longRun.exec(text);
    if (match === null) return false;
    let end = match.index + match[0].length;
    while (end < text.length && inTable(table, text.charCodeAt(end))) end++;
    if (test(match.index, end)) return true;
    at = end;
  }
  return false;
}

function inTable(table: Uint8Array, code: number): boolean {
  return code < 128 && table[code] === 1;
}

const HEX_CHARS = asciiTable('0123456789ABCDEFabcdef');
const VISIBLE_CHARS = asciiTable(Array.from({ length: 0x7e - 0x20 }, (_, i) => String.fromCharCode(0x21 + i)).join(''));

const EQUALS = 61;
// Where a run of the alphabet ends, found natively: one character at a time in a loop, a 10,000-character name
// took longer to walk than to decode.
const NOT_BASE64 = /[^A-Za-z0-9+/_-]/g;

const BASE64_CHARS = asciiTable('ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/_-');

function isBase64Char(code: number): boolean {
  return code < 128 && BASE64_CHARS[code] === 1;
}

function asciiTable(chars: string): Uint8Array {
  const table = new Uint8Array(128);
  for (const char of chars) table[char.charCodeAt(0)] = 1;
  return table;
}

/**
 * Lower case with every character in its place, so that ranges found in it are ranges of the text: `İ` lower-
 * cases to two characters (`i` and a combining dot), which would shift every range after it.
 */
function lowerInPlace(text: string): string {
  const lower = text.toLowerCase();
  if (lower.length === text.length) return lower;
  return text.replace(CASED, (char) => {
    const one = char.toLowerCase();
    return one.length === char.length ? one : char.length === 1 ? (one[0] as string) : char;
  });
}

// Upper-case ASCII and every non-ASCII character (a surrogate pair as one): what lower-casing may change.
const CASED = /[A-Z]|[^\0-\x7f]/gu;

/**
 * How many consecutive characters of the key reveal it. A key of 8 characters or fewer: all of them. A longer
 * one: 12 (fewer for a key of 12 or 13, so that the key minus one character still counts), or half the key when
 * that is more. Shorter runs would blank ordinary words a key happens to contain (the development key
 * `petstore-dev-key` against `$PETSTORE_API_KEY` in every curl line).
 */
export function minimumRun(secret: string): number {
  const length = secret.length;
  if (length <= 8) return length;
  return Math.max(Math.min(length - 1, 12), Math.ceil(length / 2));
}

function keyGrams(key: string, run: number): string[] {
  const grams: string[] = [];
  for (let i = 0; i + run <= key.length; i++) grams.push(key.slice(i, i + run));
  return grams;
}

/** Where runs of the key stand in `lower`, merged: overlapping runs make one range (so a longer run is one ***). */
function plainRanges(lower: string, grams: ReadonlySet<string>): [number, number][] {
  const ranges: [number, number][] = [];
  for (const gram of grams) {
    const digits = ALL_DIGITS.test(gram);
    for (let at = lower.indexOf(gram); at !== -1; at = lower.indexOf(gram, at + 1)) {
      if (digits && (isDigit(lower.charCodeAt(at - 1)) || isDigit(lower.charCodeAt(at + gram.length)))) continue;
      ranges.push([at, at + gram.length]);
    }
  }
  ranges.sort((a, b) => a[0] - b[0]);
  const merged: [number, number][] = [];
  for (const range of ranges) {
    const last = merged.at(-1);
    if (last && range[0] <= last[1]) last[1] = Math.max(last[1], range[1]);
    else merged.push([...range]);
  }
  return merged;
}

const ALL_DIGITS = /^[0-9]+$/;

// NaN (before the text's start, after its end) is no digit.
function isDigit(code: number): boolean {
  return code >= 48 && code <= 57;
}

function redactRanges(text: string, ranges: readonly [number, number][]): string {
  if (ranges.length === 0) return text;
  let out = '';
  let from = 0;
  for (const [start, end] of ranges) {
    out += text.slice(from, start) + REDACTED;
    from = end;
  }
  return out + text.slice(from);
}

const BACKSLASH = 92;

/** Each JSON string literal that holds an escape, replaced by `replace`'s answer; one pass. */
function replaceEscapedLiterals(text: string, replace: (literal: string) => string): string {
  let out = '';
  let copied = 0;
  // Quotes and backslashes are found natively: most literals hold neither escape nor anything else to walk.
  let backslash = text.indexOf('\\');
  for (let open = text.indexOf('"'); open !== -1; ) {
    let close = text.indexOf('"', open + 1);
    while (close !== -1 && escapedAt(text, close)) close = text.indexOf('"', close + 1);
    if (close === -1) break;
    if (backslash !== -1 && backslash < open) backslash = text.indexOf('\\', open + 1);
    if (backslash !== -1 && backslash < close) {
      const literal = text.slice(open, close + 1);
      const replaced = replace(literal);
      if (replaced !== literal) {
        out += text.slice(copied, open) + replaced;
        copied = close + 1;
      }
    }
    open = text.indexOf('"', close + 1);
  }
  return copied === 0 ? text : out + text.slice(copied);
}

/** Whether the character at `at` follows an odd number of backslashes: escaped, so no closing quote. */
function escapedAt(text: string, at: number): boolean {
  let before = at;
  while (before > 0 && text.charCodeAt(before - 1) === BACKSLASH) before--;
  return (at - before) % 2 === 1;
}

/**
 * Each run between the delimiters of a query string, of markup and of JSON (a token) that holds a `%` or a
 * backslash, replaced by `replace`'s answer. The marks are found natively; only their tokens are walked.
 */
function replaceEscapedTokens(text: string, replace: (token: string) => string): string {
  let out = '';
  let copied = 0;
  ESCAPE_MARK.lastIndex = 0;
  for (let mark = ESCAPE_MARK.exec(text); mark !== null; mark = ESCAPE_MARK.exec(text)) {
    let start = mark.index;
    while (start > copied && !isDelimiter(text.charCodeAt(start - 1))) start--;
    let end = mark.index + 1;
    while (end < text.length && !isDelimiter(text.charCodeAt(end))) end++;
    const token = text.slice(start, end);
    const replaced = replace(token);
    if (replaced !== token) {
      out += text.slice(copied, start) + replaced;
      copied = end;
    }
    ESCAPE_MARK.lastIndex = end;
  }
  return copied === 0 ? text : out + text.slice(copied);
}

const ESCAPE_MARK = /[%\\]/g;
const DELIMITERS = asciiTable(' \t\n\r\v\f"\'<>&=?;,');

function isDelimiter(code: number): boolean {
  if (code < 128) return DELIMITERS[code] === 1;
  return (
    code === 0xa0 ||
    code === 0x1680 ||
    (code >= 0x2000 && code <= 0x200a) ||
    code === 0x2028 ||
    code === 0x2029 ||
    code === 0x202f ||
    code === 0x205f ||
    code === 0x3000 ||
    code === 0xfeff
  );
}

/** `\uXXXX`, `\xHH` and `\c` as the characters they stand for, as JSON and most languages write them. */
function unescapeBackslashes(token: string): string {
  return token.replace(/\\(?:u([0-9a-fA-F]{4})|x([0-9a-fA-F]{2})|([\s\S]))/g, (_, u?: string, x?: string, other?: string) =>
    u !== undefined || x !== undefined ? String.fromCharCode(Number.parseInt((u ?? x) as string, 16)) : (other as string),
  );
}

function decodeJsonString(literal: string): string | undefined {
  try {
    return JSON.parse(literal) as string;
  } catch {
    return undefined;
  }
}

function percentDecode(token: string): string {
  // Byte by byte, as latin1 and as UTF-8: a malformed sequence must not hide the rest of the token.
  const bytes = Buffer.from(
    token.replace(/%([0-9A-Fa-f]{2})/g, (_, hex: string) => String.fromCharCode(Number.parseInt(hex, 16))),
    'latin1',
  );
  return `${bytes.toString('utf8')}\n${bytes.toString('latin1')}`;
}

// Node's base64 decoder reads the base64url alphabet too; a token is decoded whole, so wherever the key stands
// in the encoded text its bytes come out in order.
function base64Decode(token: string): string {
  return Buffer.from(token, 'base64').toString('latin1');
}
