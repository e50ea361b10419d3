import * as jsYaml from 'js-yaml';
import { CORE_SCHEMA, load, Type } from 'js-yaml';
import { createRequire } from 'node:module';
import type { Document } from 'yaml';
import { AppError } from './app-error.js';

export type YamlPath = readonly (string | number)[];

export interface ParsedYaml {
  readonly value: unknown;
  /**
   * The 1-based line of the field at `path`, or of its nearest parent that is present. A mapping or sequence
   * costs nothing (its start was recorded while parsing); a scalar re-reads the text keeping every position,
   * which is meant for error messages only.
   */
  readonly lineOf: (path: YamlPath) => number;
}

export interface ParseYamlOptions {
  /** Integers a double would round (an int64 id such as 9223372036854775807) become bigint; the rest stay numbers. */
  readonly exactIntegers?: boolean;
}

/**
 * Parses a YAML file the contract and the scenario files are both written in (YAML 1.2 core schema). A syntax
 * error throws AppError(errorCode) as `Failed to read <file>: line <n>, column <m>: <problem>`.
 *
 * Two parsers, on purpose: js-yaml reads a file about five times faster than `yaml` (ten times on a cold start,
 * which is what a CLI run pays), but only `yaml` keeps the position of every node. So js-yaml reads, and `yaml`
 * is asked only when a message needs the line of a scalar or the text has anchors (`yaml` bounds how far aliases
 * expand; js-yaml would hand later code a graph that is exponential to walk).
 */
export function parseYaml(file: string, text: string, errorCode: string, options: ParseYamlOptions = {}): ParsedYaml {
  let precise: Document | undefined;
  const positions = () => {
    precise ??= readPrecisely(file, text, errorCode);
    return precise;
  };
  if (text.includes('&') && HAS_ANCHOR.test(text)) {
    const doc = positions();
    const value = doc.toJS({ maxAliasCount: 100 });
    return { value: withNumbers(value, options.exactIntegers === true), lineOf: (path) => lineOfPath(doc, text, path) };
  }

  const starts = new WeakMap<object, number>();
  const opened: number[] = [];
  let value: unknown;
  try {
    value = load(text, {
      filename: file,
      schema: options.exactIntegers ? EXACT_SCHEMA : CORE_SCHEMA,
      listener: (event, state) => {
        if (event === 'open') opened.push(state.position);
        else {
          const start = opened.pop() as number;
          const result: unknown = state.result;
          if (result !== null && typeof result === 'object' && !starts.has(result)) starts.set(result, start);
        }
      },
    });
  } catch (error) {
    positions(); // the precise parser words the error and places it exactly
    const mark = (error as { mark?: { line: number; column: number } }).mark;
    const where = mark ? `line ${mark.line + 1}, column ${mark.column + 1}: ` : '';
    throw new AppError(errorCode, `Failed to read ${file}: ${where}${(error as { reason?: string }).reason ?? error}`);
  }
  const lines = lineStarts(text);
  return {
    value,
    lineOf: (path) => {
      const node = valueAt(value, path);
      const start = node !== null && typeof node === 'object' ? starts.get(node) : undefined;
      return start === undefined ? lineOfPath(positions(), text, path) : lineAt(lines, contentStart(text, start));
    },
  };
}

// An anchor follows whitespace or a flow indicator and starts a name; a '&' inside a string only sends the file
// down the slower path, which is always correct.
const HAS_ANCHOR = /(?:^|[\s[{,:])&[^\s,[\]{}]/m;

// Loaded on first need (an error message, a file with anchors): its 70 modules are a tenth of a cold start.
const require = createRequire(import.meta.url);
function preciseParser(): typeof import('yaml') {
  return require('yaml') as typeof import('yaml');
}

function readPrecisely(file: string, text: string, errorCode: string): Document {
  const { LineCounter, parseDocument, visit } = preciseParser();
  const lineCounter = new LineCounter();
  const doc = parseDocument(text, { lineCounter, intAsBigInt: true, prettyErrors: false });
  const [first] = doc.errors;
  if (first) {
    const { line, col } = lineCounter.linePos(first.pos[0]);
    throw new AppError(errorCode, `Failed to read ${file}: line ${line}, column ${col}: ${first.message.split('\n')[0]}`);
  }
  // `a: &a [*a]` is valid YAML, but as data it never ends: refuse it here, where its line is known.
  visit(doc, {
    Alias(_, alias, ancestors) {
      const target = alias.resolve(doc);
      if (!target || !ancestors.includes(target)) return;
      const { line, col } = lineCounter.linePos(alias.range?.[0] ?? 0);
      throw new AppError(
        errorCode,
        `Failed to read ${file}: line ${line}, column ${col}: alias *${alias.source} refers to a node that contains it`,
      );
    },
  });
  return doc;
}

// @types/js-yaml 4.0.9 leaves out the `types` export that js-yaml 4 has: the core schema's own int type.
const CORE_INT = (jsYaml as unknown as { types: { int: Type } }).types.int;
const EXACT_INT = new Type('tag:yaml.org,2002:int', {
  kind: 'scalar',
  resolve: (data: string) => CORE_INT.resolve(data),
  construct: (data: string) => {
    const rounded = CORE_INT.construct(data) as number;
    return Number.isSafeInteger(rounded) ? rounded : toBigInt(data);
  },
  predicate: (object: unknown) => typeof object === 'bigint' || Number.isInteger(object),
});
const EXACT_SCHEMA = CORE_SCHEMA.extend({ implicit: [EXACT_INT] });

// '-0x7FFF_FFFF_FFFF_FFFF' → -9223372036854775807n: BigInt reads the 0x/0o/0b prefixes but not a sign before them.
function toBigInt(data: string): bigint {
  const digits = data.replace(/_/g, '');
  const negative = digits.startsWith('-');
  const magnitude = BigInt(digits.replace(/^[-+]/, ''));
  return negative ? -magnitude : magnitude;
}

/** The precise parser reads every integer as bigint: numbers again, as the fast path gives them. */
function withNumbers(value: unknown, keepUnsafe: boolean): unknown {
  if (typeof value === 'bigint') return keepUnsafe && !Number.isSafeInteger(Number(value)) ? value : Number(value);
  if (Array.isArray(value)) return value.map((item) => withNumbers(item, keepUnsafe));
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, withNumbers(item, keepUnsafe)]));
  }
  return value;
}

function valueAt(value: unknown, path: YamlPath): unknown {
  let node = value;
  for (const segment of path) {
    if (node === null || typeof node !== 'object') return undefined;
    node = (node as Record<string | number, unknown>)[segment];
  }
  return node;
}

function lineOfPath(doc: Document, text: string, path: YamlPath): number {
  for (let length = path.length; length >= 0; length--) {
    const node = length === 0 ? doc.contents : doc.getIn(path.slice(0, length), true);
    if (preciseParser().isNode(node) && node.range) return lineAt(lineStarts(text), node.range[0]);
  }
  return 1;
}

// js-yaml opens a node before the spaces, line breaks and comments in front of it (after `key:`, say).
function contentStart(text: string, from: number): number {
  let at = from;
  while (at < text.length) {
    const char = text[at];
    if (char === '#') while (at < text.length && text[at] !== '\n') at++;
    else if (char === ' ' || char === '\t' || char === '\r' || char === '\n') at++;
    else break;
  }
  return at;
}

function lineStarts(text: string): number[] {
  const starts = [0];
  for (let at = text.indexOf('\n'); at !== -1; at = text.indexOf('\n', at + 1)) starts.push(at + 1);
  return starts;
}

function lineAt(starts: readonly number[], offset: number): number {
  let low = 0;
  let high = starts.length - 1;
  while (low < high) {
    const middle = (low + high + 1) >> 1;
    if ((starts[middle] as number) <= offset) low = middle;
    else high = middle - 1;
  }
  return low + 1;
}
