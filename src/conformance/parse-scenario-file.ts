import { type Document, isNode, type LineCounter } from 'yaml';
import { AppError } from '../contract/app-error.js';
import { compileSchema } from '../contract/compile-schema.js';
import { parseYamlDocument } from '../contract/parse-yaml-document.js';
import { SCENARIO_FORMAT } from './scenario-format.js';

/** A scenario file's content, checked against the format, with a way back to the line of any field. */
export interface ParsedScenarioFile {
  readonly value: RawScenarioFile;
  /** The 1-based line of a field given as path segments (['scenarios', 0, 'steps', 1]); the nearest parent's line when absent. */
  readonly lineOf: (path: readonly (string | number)[]) => number;
  /** Throws AppError('scenario_invalid') as `Failed to read <file>: line <n>: <field>: <problem>`. */
  readonly fail: (path: readonly (string | number)[], problem: string) => never;
}

export interface RawStep {
  readonly operation: string;
  readonly params?: Record<string, unknown>;
  readonly query?: Record<string, unknown>;
  readonly headers?: Record<string, string | number | boolean>;
  readonly body?: unknown;
  readonly rawBody?: string;
  readonly auth?: string;
  readonly capture?: string;
  readonly observe?: string;
  readonly repeat?: number | { count: number; less?: string };
  readonly expect?: {
    readonly status?: number | string | (number | string)[];
    readonly body?: unknown;
    readonly bodyEach?: unknown;
    readonly bodyLength?: { min?: number; max?: number; equals?: number };
    readonly headers?: Record<string, string | boolean>;
  };
}

export interface RawScenario {
  readonly name: string;
  readonly description: string;
  readonly tags?: string[];
  readonly steps: RawStep[];
}

export interface RawScenarioFile {
  readonly scenarios: RawScenario[];
}

// Compiled once, when the module loads (through the contract module's one Ajv instance).
const validateFormat = compileSchema(SCENARIO_FORMAT, '');

export function parseScenarioFile(file: string, text: string): ParsedScenarioFile {
  // intAsBigInt: an int64 id such as 9223372036854775807 must keep its digits; safe ones become numbers below.
  const { doc, lineCounter } = parseYamlDocument(file, text, 'scenario_invalid', true);
  const lineOf = (path: readonly (string | number)[]) => lineOfPath(doc, lineCounter, path);
  const fail = (path: readonly (string | number)[], problem: string): never => {
    throw new AppError('scenario_invalid', `Failed to read ${file}: line ${lineOf(path)}: ${fieldName(path)}: ${problem}`);
  };
  const value = exactIntegers(doc.toJS({ maxAliasCount: 100 }));
  const issues = validateFormat(value);
  const [issue] = issues;
  if (issue) {
    const path = pathSegments(issue.path);
    // A field with alternatives (a status: 200, '2XX' or a list) fails each one; name them all as one problem.
    const sameField = issues.filter((i) => i.path === issue.path && !i.message.includes('oneOf')).map((i) => i.message);
    fail(path, [...new Set(sameField)].join(', or ') || issue.message);
  }
  return { value: value as RawScenarioFile, lineOf, fail };
}

/** bigint only where a double would lose digits: the rest of the runner works with plain numbers. */
function exactIntegers(value: unknown): unknown {
  if (typeof value === 'bigint') return Number.isSafeInteger(Number(value)) ? Number(value) : value;
  if (Array.isArray(value)) return value.map(exactIntegers);
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, exactIntegers(item)]));
  }
  return value;
}

// '.scenarios[0].steps[1].operation' → ['scenarios', 0, 'steps', 1, 'operation']
function pathSegments(path: string): (string | number)[] {
  return [...path.matchAll(/\.([^.[\]]+)|\[(\d+)\]/g)].map((m) => (m[2] === undefined ? (m[1] as string) : Number(m[2])));
}

function fieldName(path: readonly (string | number)[]): string {
  const text = path.map((s) => (typeof s === 'number' ? `[${s}]` : `.${s}`)).join('');
  return text.replace(/^\./, '') || '(file)';
}

function lineOfPath(doc: Document, lineCounter: LineCounter, path: readonly (string | number)[]): number {
  for (let length = path.length; length >= 0; length--) {
    const node = length === 0 ? doc.contents : doc.getIn(path.slice(0, length), true);
    if (isNode(node) && node.range) return lineCounter.linePos(node.range[0]).line;
  }
  return 1;
}
