/**
 * Strings that match a `pattern`, made by a small generator over the simple part of ECMA-262 (with the u flag, as
 * Ajv reads it): anchors, literals, escapes (\d \w \s and their negations, \. \- ...), character classes with
 * ranges and negation, `.`, groups (capturing, named, `(?:`) with alternation, and the quantifiers `?` `*` `+`
 * `{n}` `{n,}` `{n,m}`. What it cannot make (a lookahead, a back-reference, a word boundary, a Unicode property) is
 * named, so that a case that cannot send a valid value says why instead of being refused by a correct server.
 */

type Node =
  | { readonly kind: 'chars'; readonly set: readonly string[] }
  | { readonly kind: 'seq'; readonly items: readonly Node[] }
  | { readonly kind: 'alt'; readonly options: readonly Node[] }
  | { readonly kind: 'repeat'; readonly node: Node; readonly min: number; readonly max: number };

/** Chooses one of `n` (0 ≤ result < n): always 0 for the plainest value, a seeded draw for a fresh one. */
export type Pick = (n: number) => number;

export type PatternStrings =
  | { readonly make: (grow: number, pick: Pick) => string; readonly regex: RegExp }
  | { readonly unsupported: string };

const LOWER = [...'abcdefghijklmnopqrstuvwxyz'];
const UPPER = [...'ABCDEFGHIJKLMNOPQRSTUVWXYZ'];
const DIGITS = [...'0123456789'];
// Letters first: the plainest pick of `.` or of a negated class is a letter, not punctuation.
const PRINTABLE = [...LOWER, ...UPPER, ...DIGITS, ...' -_.~!#$%&()*+,/:;<=>?@[]^{|}\'"`\\'];
const WORD = [...LOWER, ...UPPER, ...DIGITS, '_'];
const SPACE = [' ', '\t', '\n', '\r', '\f', '\v'];
const ESCAPED_CHARS: Readonly<Record<string, string>> = { n: '\n', t: '\t', r: '\r', f: '\f', v: '\v', '0': '\0' };
// Ranges wider than this (\u0000-\uFFFF) are drawn from their first code points: any of them matches.
const RANGE_CAP = 256;

class Unsupported extends Error {}

/** The generator for `pattern`, or the construct it does not handle. */
export function patternStrings(pattern: string): PatternStrings {
  let regex: RegExp;
  try {
    regex = new RegExp(pattern, 'u');
  } catch {
    return { unsupported: 'a pattern that is no regular expression with the u flag' };
  }
  try {
    const node = new Parser(pattern).parse();
    return { regex, make: (grow, pick) => generate(node, grow, pick) };
  } catch (error) {
    if (error instanceof Unsupported) return { unsupported: error.message };
    throw error;
  }
}

/**
 * A string that matches `pattern` and whose length (in code points, as Ajv counts) is within the bounds, or why
 * none was made: the plainest first (fewest repetitions, first alternative, first character of each class), then
 * longer ones, then drawn ones.
 */
export function patternString(
  pattern: string,
  minLength = 0,
  maxLength = Number.POSITIVE_INFINITY,
  pick: Pick = () => 0,
  grow = 0,
): { readonly value: string } | { readonly unsupported: string } {
  const strings = patternStrings(pattern);
  if ('unsupported' in strings) return strings;
  const fits = (text: string) => {
    const length = [...text].length;
    return length >= minLength && length <= maxLength && strings.regex.test(text);
  };
  for (let extra = grow; extra <= grow + 64; extra++) {
    const text = strings.make(extra, pick);
    if (fits(text)) return { value: text };
    if ([...text].length > maxLength) break;
  }
  // Another alternative or character may be what fits (`^(ab|c)$` with maxLength 1): a few draws of a fixed seed.
  let state = 1;
  const drawn: Pick = (n) => {
    state = (state * 48271) % 2147483647;
    return state % n;
  };
  for (let tries = 0; tries < 32; tries++) {
    const text = strings.make(tries % 8, drawn);
    if (fits(text)) return { value: text };
  }
  return {
    unsupported: `no string of ${minLength}${Number.isFinite(maxLength) ? ` to ${maxLength}` : ' or more'} characters it could make matches it`,
  };
}

function generate(node: Node, grow: number, pick: Pick): string {
  switch (node.kind) {
    case 'chars':
      return node.set[pick(node.set.length)] ?? '';
    case 'seq':
      return node.items.map((item) => generate(item, grow, pick)).join('');
    case 'alt':
      return generate(node.options[pick(node.options.length)] as Node, grow, pick);
    case 'repeat': {
      const count = Math.min(node.max, node.min + grow);
      let out = '';
      for (let i = 0; i < count; i++) out += generate(node.node, grow, pick);
      return out;
    }
  }
}

class Parser {
  private at = 0;
  constructor(private readonly source: string) {}

  parse(): Node {
    const node = this.alternation();
    if (this.at < this.source.length) throw new Unsupported(`'${this.source[this.at]}' at ${this.at}`);
    return node;
  }

  private alternation(): Node {
    const options = [this.sequence()];
    while (this.source[this.at] === '|') {
      this.at++;
      options.push(this.sequence());
    }
    return options.length === 1 ? (options[0] as Node) : { kind: 'alt', options };
  }

  private sequence(): Node {
    const items: Node[] = [];
    for (let c = this.source[this.at]; c !== undefined && c !== '|' && c !== ')'; c = this.source[this.at]) {
      if (c === '^' || c === '$') {
        // Anchors: the whole made string is the match, so they hold wherever they sit at an end.
        this.at++;
        continue;
      }
      items.push(this.quantified(this.atom()));
    }
    return { kind: 'seq', items };
  }

  private quantified(node: Node): Node {
    const c = this.source[this.at];
    let min: number;
    let max: number;
    if (c === '*' || c === '+' || c === '?') {
      this.at++;
      [min, max] = c === '*' ? [0, Number.POSITIVE_INFINITY] : c === '+' ? [1, Number.POSITIVE_INFINITY] : [0, 1];
    } else if (c === '{') {
      const bounds = /^\{(\d+)(,(\d*))?\}/.exec(this.source.slice(this.at));
      if (!bounds) throw new Unsupported(`a '{' that is no quantifier at ${this.at}`);
      this.at += bounds[0].length;
      min = Number(bounds[1]);
      max = bounds[2] === undefined ? min : bounds[3] === '' ? Number.POSITIVE_INFINITY : Number(bounds[3]);
    } else {
      return node;
    }
    if (this.source[this.at] === '?') this.at++; // lazy: the same strings match
    return { kind: 'repeat', node, min, max };
  }

  private atom(): Node {
    const c = this.source[this.at] as string;
    if (c === '(') return this.group();
    if (c === '[') return this.characterClass();
    if (c === '.') {
      this.at++;
      return { kind: 'chars', set: PRINTABLE };
    }
    if (c === '\\') return { kind: 'chars', set: this.escape(false) };
    const point = String.fromCodePoint(this.source.codePointAt(this.at) as number);
    this.at += point.length;
    return { kind: 'chars', set: [point] };
  }

  private group(): Node {
    this.at++;
    const rest = this.source.slice(this.at);
    if (rest.startsWith('?:')) this.at += 2;
    else if (/^\?<[A-Za-z_$][\w$]*>/.test(rest)) this.at = this.source.indexOf('>', this.at) + 1;
    else if (rest.startsWith('?=') || rest.startsWith('?!')) throw new Unsupported(`a lookahead (${rest.slice(0, 2)}`);
    else if (rest.startsWith('?<=') || rest.startsWith('?<!')) throw new Unsupported(`a lookbehind (${rest.slice(0, 3)}`);
    else if (rest.startsWith('?')) throw new Unsupported(`a group (${rest.slice(0, 2)}`);
    const node = this.alternation();
    if (this.source[this.at] !== ')') throw new Unsupported('an unclosed group');
    this.at++;
    return node;
  }

  private characterClass(): Node {
    this.at++;
    const negated = this.source[this.at] === '^';
    if (negated) this.at++;
    const members = new Set<string>();
    while (this.at < this.source.length && this.source[this.at] !== ']') {
      const from = this.classMember();
      if (this.source[this.at] === '-' && this.source[this.at + 1] !== ']' && from.length === 1) {
        this.at++;
        const to = this.classMember();
        if (to.length !== 1) throw new Unsupported('a range to a class escape');
        const [low, high] = [(from[0] as string).codePointAt(0) as number, (to[0] as string).codePointAt(0) as number];
        for (let point = low; point <= Math.min(high, low + RANGE_CAP); point++) members.add(String.fromCodePoint(point));
      } else {
        for (const member of from) members.add(member);
      }
    }
    if (this.source[this.at] !== ']') throw new Unsupported('an unclosed character class');
    this.at++;
    // The plainest pick is a letter or digit where the class has one: `[-_a-z]` gives `a`, not `-`.
    const ordered = [...PRINTABLE.filter((c) => members.has(c)), ...[...members].filter((c) => !PRINTABLE.includes(c))];
    const set = negated ? PRINTABLE.filter((c) => !members.has(c)) : ordered;
    if (set.length === 0) throw new Unsupported('a character class no character matches');
    return { kind: 'chars', set };
  }

  private classMember(): readonly string[] {
    if (this.source[this.at] === '\\') return this.escape(true);
    const point = String.fromCodePoint(this.source.codePointAt(this.at) as number);
    this.at += point.length;
    return [point];
  }

  /** The characters one escape stands for; `inClass`: `\b` is a backspace there, a word boundary outside. */
  private escape(inClass: boolean): readonly string[] {
    const c = this.source[this.at + 1];
    if (c === undefined) throw new Unsupported('a trailing backslash');
    this.at += 2;
    switch (c) {
      case 'd':
        return DIGITS;
      case 'D':
        return PRINTABLE.filter((x) => !DIGITS.includes(x));
      case 'w':
        return WORD;
      case 'W':
        return PRINTABLE.filter((x) => !WORD.includes(x));
      case 's':
        return SPACE;
      case 'S':
        return PRINTABLE.filter((x) => !SPACE.includes(x));
      case 'b':
        if (inClass) return ['\b'];
        throw new Unsupported('a word boundary (\\b)');
      case 'B':
        throw new Unsupported('a non-boundary (\\B)');
      case 'p':
      case 'P':
        throw new Unsupported(`a Unicode property (\\${c}{...})`);
      case 'k':
        throw new Unsupported('a back-reference (\\k<...>)');
      case 'c':
        throw new Unsupported('a control escape (\\c)');
      case 'x':
        return [this.hex(2)];
      case 'u':
        if (this.source[this.at] === '{') {
          const close = this.source.indexOf('}', this.at);
          const point = String.fromCodePoint(Number.parseInt(this.source.slice(this.at + 1, close), 16));
          this.at = close + 1;
          return [point];
        }
        return [this.hex(4)];
      default:
        if (/[1-9]/.test(c)) throw new Unsupported(`a back-reference (\\${c})`);
        return [ESCAPED_CHARS[c] ?? c];
    }
  }

  private hex(digits: number): string {
    const text = this.source.slice(this.at, this.at + digits);
    this.at += digits;
    return String.fromCharCode(Number.parseInt(text, 16));
  }
}
