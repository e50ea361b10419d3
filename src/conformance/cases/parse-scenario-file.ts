import { AppError } from '../../contract/app-error.js';
import { compileSchema } from '../../contract/compile-schema.js';
import { parseYaml, type YamlPath } from '../../contract/parse-yaml.js';
import { SCENARIO_FORMAT } from './scenario-format.js';

/** A scenario file's content, checked against the format, with a way back to the line of any field. */
export interface ParsedScenarioFile {
  readonly value: RawScenarioFile;
  /** The 1-based line of a field given as path segments (['scenarios', 0, 'steps', 1]); the nearest parent's line when absent. */
  readonly lineOf: (path: YamlPath) => number;
  /** Throws AppError('scenario_invalid') as `Failed to read <file>: line <n>: <field>: <problem>`. */
  readonly fail: (path: YamlPath, problem: string) => never;
}

export interface RawStep {
  readonly operation: string;
  readonly params?: Record<string, string | number | bigint | boolean>;
  readonly query?: Record<string, string | number | bigint | boolean | (string | number | bigint | boolean)[]>;
  readonly headers?: Record<string, string | number | boolean>;
  readonly body?: unknown;
  readonly rawBody?: string;
  readonly auth?: string;
  readonly capture?: string;
  readonly observe?: string;
  readonly repeat?: number | { count: number; less?: string };
  readonly walk?: boolean | { maxPages?: number; atLeast?: number; ownCollection?: boolean };
  readonly expect?: {
    readonly status?: number | string | (number | string)[];
    readonly body?: unknown;
    readonly bodyEach?: unknown;
    readonly bodyIncludes?: { item: unknown; whenShorterThan?: number };
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
  // An int64 id such as 9223372036854775807 must keep its digits.
  const { value, lineOf } = parseYaml(file, text, 'scenario_invalid', { exactIntegers: true });
  const fail = (path: YamlPath, problem: string): never => {
    throw new AppError('scenario_invalid', `Failed to read ${file}: line ${lineOf(path)}: ${fieldName(path)}: ${problem}`);
  };
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

// '.scenarios[0].steps[1].operation' → ['scenarios', 0, 'steps', 1, 'operation']
function pathSegments(path: string): (string | number)[] {
  return [...path.matchAll(/\.([^.[\]]+)|\[(\d+)\]/g)].map((m) => (m[2] === undefined ? (m[1] as string) : Number(m[2])));
}

function fieldName(path: readonly (string | number)[]): string {
  const text = path.map((s) => (typeof s === 'number' ? `[${s}]` : `.${s}`)).join('');
  return text.replace(/^\./, '') || '(file)';
}
