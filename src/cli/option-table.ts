import { parseArgs } from 'node:util';
import { AppError } from '../contract/app-error.js';
import { formatDuration } from '../conformance/create-run-bounds.js';
import { suggestName } from '../conformance/cases/suggest-name.js';

/** One row per CLI option: parsing and --help are both made from the table. */
export interface OptionRow {
  readonly name: string;
  readonly type: 'string' | 'boolean';
  readonly multiple?: boolean;
  readonly short?: string;
  readonly value?: string;
  readonly description: string;
  /** The value taken when the option is not given, as a user would type it: parsing and --help both read it here. */
  readonly default?: string;
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
    const values = parseArgs({ args: withNegativeValues(rows, argv), options: config, allowPositionals: false, strict: true })
      .values as ParsedOptions;
    for (const row of rows) if (row.default !== undefined && values[row.name] === undefined) values[row.name] = row.default;
    return values;
  } catch (error) {
    throw new AppError('usage', explain(error as Error & { code?: string }, rows));
  }
}

// parseArgs reads `--delay -5` as an option -5 and says "(got '')": a value that looks like a negative number is
// joined to its option (`--delay=-5`), so the option's own check names what is wrong with it.
function withNegativeValues(rows: readonly OptionRow[], argv: readonly string[]): string[] {
  const takesValue = new Set(
    rows.filter((row) => row.type === 'string').flatMap((row) => [`--${row.name}`, ...(row.short ? [`-${row.short}`] : [])]),
  );
  const args: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] as string;
    const next = argv[i + 1];
    if (takesValue.has(arg) && next !== undefined && /^-\d/.test(next)) {
      args.push(arg.startsWith('--') ? `${arg}=${next}` : `${arg}${next}`);
      i++;
    } else args.push(arg);
  }
  return args;
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
  const lines = rows.map(
    (row, i) =>
      `  ${(left[i] as string).padEnd(width)}${row.description}${row.default === undefined ? '' : ` (default ${row.default})`}`,
  );
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

const BYTE_UNITS: Readonly<Record<string, number>> = { '': 1, b: 1, kib: 1024, k: 1024, mib: 1024 ** 2, m: 1024 ** 2 };

/** A size in bytes, or with KiB or MiB, from 1KiB to 1024MiB; `fallback` when not given; usage error otherwise. */
export function byteSizeOption(name: string, text: string | undefined, fallback: number): number {
  if (text === undefined) return fallback;
  const match = /^(\d+)\s*([a-z]*)$/i.exec(text.trim());
  const unit = BYTE_UNITS[(match?.[2] ?? '').toLowerCase()];
  const value = match && unit ? Number(match[1]) * unit : Number.NaN;
  if (!(value >= 1024 && value <= 1024 ** 3)) {
    throw new AppError('usage', `--${name} must be a size from 1KiB to 1024MiB, such as 10MiB or 500000 (got '${text}')`);
  }
  return value;
}

/** A repeatable option's values; comma-separated lists split unless `commas` is false. */
export function listOption(value: string | boolean | string[] | undefined, commas = true): string[] | undefined {
  if (!Array.isArray(value)) return undefined;
  return value
    .flatMap((v) => (commas ? v.split(',') : [v]))
    .map((v) => v.trim())
    .filter(Boolean);
}

const DURATION_UNITS: Readonly<Record<string, number>> = { '': 1, ms: 1, s: 1000, m: 60_000, h: 3_600_000 };

/** A duration in ms, or with ms, s, m or h, from 1 ms to `maxMs` (default 10 minutes); usage error otherwise. */
export function durationOption(name: string, text: string | undefined, maxMs = 600_000): number | undefined {
  if (text === undefined) return undefined;
  const match = /^(\d+)(ms|s|m|h)?$/.exec(text.trim());
  const value = match ? Number(match[1]) * (DURATION_UNITS[match[2] ?? ''] as number) : Number.NaN;
  if (!(value >= 1 && value <= maxMs))
    throw new AppError(
      'usage',
      `--${name} must be a duration such as 500, 500ms, 10s or 5m, at most ${formatDuration(maxMs)} (got '${text}')`,
    );
  return value;
}
