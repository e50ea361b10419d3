import { parseArgs } from 'node:util';
import { AppError } from '../contract/app-error.js';
import { suggestName } from '../conformance/suggest-name.js';

/** One row per CLI option: parsing and --help are both made from the table. */
export interface OptionRow {
  readonly name: string;
  readonly type: 'string' | 'boolean';
  readonly multiple?: boolean;
  readonly short?: string;
  readonly value?: string;
  readonly description: string;
}

export type ParsedOptions = Record<string, string | boolean | string[] | undefined>;

/** Throws AppError('usage') with parseArgs' own explanation of what is wrong. */
export function parseOptions(rows: readonly OptionRow[], argv: readonly string[]): ParsedOptions {
  const config = Object.fromEntries(
    rows.map((row) => [
      row.name,
      { type: row.type, multiple: row.multiple ?? false, ...(row.short ? { short: row.short } : {}) },
    ]),
  );
  try {
    return parseArgs({ args: [...argv], options: config, allowPositionals: false, strict: true }).values as ParsedOptions;
  } catch (error) {
    throw new AppError('usage', explain(error as Error & { code?: string }, rows));
  }
}

// parseArgs' own words, with the nearest option for a misspelt one (its advice about positionals does not apply).
function explain(error: Error & { code?: string }, rows: readonly OptionRow[]): string {
  const unknown = error.code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION' ? /^Unknown option '(-{1,2})([^'=]+)/.exec(error.message) : null;
  if (!unknown) return error.message;
  const [, dashes, name] = unknown as unknown as [string, string, string];
  const hint = suggestName(name, dashes === '--' ? rows.map((row) => row.name) : rows.flatMap((row) => row.short ?? []));
  return `Unknown option '${dashes}${name}'${hint ? ` (did you mean ${dashes}${hint}?)` : ''}`;
}

export function renderHelp(usage: string, rows: readonly OptionRow[], footer = ''): string {
  const left = rows.map((row) => `${row.short ? `-${row.short}, ` : '    '}--${row.name}${row.value ? ` <${row.value}>` : ''}`);
  const width = Math.max(...left.map((l) => l.length)) + 2;
  const lines = rows.map((row, i) => `  ${(left[i] as string).padEnd(width)}${row.description}`);
  return `${usage}\n\nOptions:\n${lines.join('\n')}\n${footer ? `\n${footer}\n` : ''}`;
}

/** A whole number option within [min, max]; usage error otherwise. */
export function integerOption(name: string, text: string | undefined, min: number, max: number): number | undefined {
  if (text === undefined) return undefined;
  const value = Number(text);
  if (!/^\d+$/.test(text.trim()) || value < min || value > max) {
    throw new AppError('usage', `--${name} must be a whole number from ${min} to ${max} (got '${text}')`);
  }
  return value;
}
