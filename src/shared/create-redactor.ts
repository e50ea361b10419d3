import { detachText } from './detach-text.js';

/** Replaces the key (and any other secret it was given), and anything that reveals most of it, with `***`. */
export type Redactor = (text: string) => string;

export const REDACTED = '***';

/**
 * The rule: a run of at least `minimumRun(key)` consecutive characters of the key (12 for most keys, half of a
 * long one), compared case-insensitively, is the key. That covers the key as sent, the key minus a character,
 * the key inside `Basic <key>`, `Token <key>` or `Bearer <key> junk`, and the key in swapped case. The check is made on decoded values, never only on the raw
 * text a target sent:
 * - inside a JSON string literal, after its escapes (`\/`, `\uXXXX`) are decoded (RFC 8259 §7);
 * - inside a percent-encoded token, after decoding, whatever the case of its hex digits (RFC 3986 §2.1);
 * - inside a base64 or base64url token, after decoding (RFC 4648 §4, §5): the key's base64 form, and the
 *   `Basic` / `Bearer` credentials a target may echo encoded.
 * A redacted JSON string stays a valid JSON string, so a redacted body still parses.
 */
export function createRedactor(secrets: string | readonly (string | undefined)[] | undefined): Redactor {
  const keys = [secrets ?? []].flat().filter((key): key is string => Boolean(key));
  if (keys.length === 0) return (text) => text;
  const run = Math.min(...keys.map(minimumRun));
  const grams = new Set(keys.flatMap((key) => keyGrams(key.toLowerCase(), minimumRun(key))));
  const anchors = keys.map((key) => anchorOf(key.toLowerCase(), minimumRun(key)));
  // Most text holds no run of the key at all: one scan for what every run of it must contain says so.
  const rangesIn = (lower: string) => (anchors.some((anchor) => lower.includes(anchor)) ? plainRanges(lower, grams) : NONE);
  const reveals = (decoded: string) => decoded.length >= run && rangesIn(decoded.toLowerCase()).length > 0;
  const redactPlain = (text: string) => redactRanges(text, rangesIn(text.toLowerCase()));
  // Only tokens long enough to encode a run are decoded.
  const base64Token = new RegExp(`(?<![A-Za-z0-9+/_-])[A-Za-z0-9+/_-]{${Math.ceil(run / 3) * 4},}={0,2}`, 'g');
  // The same tokens come back in every answer (application/json, error codes): each is decoded once.
  const verdicts = new Map<string, boolean>();
  const revealsEncoded = (token: string) => {
    let verdict = verdicts.get(token);
    if (verdict === undefined) {
      verdict = reveals(base64Decode(token));
      if (token.length <= REMEMBERED_TOKEN_CHARS) {
        if (verdicts.size >= REMEMBERED_TOKENS) verdicts.clear();
        // The token is a slice of the text it was found in: kept as it is, it would keep all of that text alive.
        verdicts.set(detachText(token), verdict);
      }
    }
    return verdict;
  };
  const redactTokens = (text: string) => {
    const unescaped = text.includes('%')
      ? text.replace(TOKEN, (token) => (token.includes('%') && reveals(percentDecode(token)) ? REDACTED : token))
      : text;
    return redactRanges(unescaped, base64Tokens(unescaped, base64Token, revealsEncoded));
  };
  const redactDecoded = (text: string) => redactPlain(redactTokens(text));
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
      ? text.replace(JSON_STRING, (literal) => {
          if (!literal.includes('\\')) return literal;
          const decoded = decodeJsonString(literal);
          if (decoded === undefined) return literal;
          const redacted = redactDecoded(decoded);
          return redacted === decoded ? literal : JSON.stringify(redacted);
        })
      : text;
    return redactDecoded(literals);
  }
}

const REMEMBERED_TOKENS = 1024;
const REMEMBERED_TEXTS = 4096;
const REMEMBERED_TEXT_CHARS = 256;
const REMEMBERED_TOKEN_CHARS = 64;
const NONE: readonly [number, number][] = [];

/**
 * What every run of `run` characters of the key contains: its middle, where all runs overlap (a 16-character key,
 * runs of 12: characters 4 to 11). A key whose runs share no character has no anchor ('', in every text).
 */
function anchorOf(key: string, run: number): string {
  return 2 * run > key.length ? key.slice(key.length - run, run) : '';
}

/**
 * The base64 and base64url tokens (with up to two `=` after them) that `reveals`, as ranges. The look-behind makes
 * a match start only where a run of the alphabet starts, so a long run is read once, not once from each of its
 * characters.
 */
function base64Tokens(text: string, pattern: RegExp, revealing: (token: string) => boolean): [number, number][] {
  const ranges: [number, number][] = [];
  pattern.lastIndex = 0;
  for (let match = pattern.exec(text); match !== null; match = pattern.exec(text)) {
    if (revealing(match[0])) ranges.push([match.index, match.index + match[0].length]);
  }
  return ranges;
}

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
    for (let at = lower.indexOf(gram); at !== -1; at = lower.indexOf(gram, at + 1)) ranges.push([at, at + gram.length]);
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

// Linear: the two alternatives cannot match the same character, so there is nothing to backtrack over.
const JSON_STRING = /"(?:[^"\\]|\\.)*"/g;
// A run between the delimiters of a query string and of markup; one with a % in it may be percent-encoded.
// (A pattern that required a %XX in the middle would backtrack over every long run without one.)
const TOKEN = /[^\s"'<>&=?;,]+/g;

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
