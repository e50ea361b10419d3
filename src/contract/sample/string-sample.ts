import { fullFormats } from 'ajv-formats/dist/formats.js';
import type { JsonSchema } from '../operation.js';
import { type Pick, patternString } from './pattern-string.js';

/**
 * A value of each format the contract's validators check (ajv-formats), valid as they read it. A format not listed
 * here is one no validator of the toolkit checks (`password`, `binary`, a contract's own): any text passes it.
 */
const FORMAT_SAMPLES: Readonly<Record<string, string>> = {
  uuid: '3fa85f64-5717-4562-b3fc-2c963f66afa6',
  email: 'sample@example.com',
  'idn-email': 'sample@example.com',
  date: '2026-01-01',
  'date-time': '2026-01-01T00:00:00Z',
  'iso-date-time': '2026-01-01T00:00:00Z',
  time: '00:00:00Z',
  'iso-time': '00:00:00Z',
  duration: 'P1D',
  uri: 'https://example.com/sample',
  url: 'https://example.com/sample',
  iri: 'https://example.com/sample',
  'uri-reference': 'https://example.com/sample',
  'iri-reference': 'https://example.com/sample',
  'uri-template': 'https://example.com/{sample}',
  hostname: 'example.com',
  'idn-hostname': 'example.com',
  ipv4: '192.0.2.1',
  ipv6: '2001:db8::1',
  byte: 'c2FtcGxl',
  regex: '^sample$',
  'json-pointer': '/sample',
  'relative-json-pointer': '0/sample',
};

/** Why no valid string could be made for a schema: the construct, for the runner to name (issue 22). */
export interface UnmadeString {
  readonly value: string;
  readonly unmade: string;
}

/** Length in code points, as JSON Schema counts it. */
export function codePoints(text: string): number {
  return [...text].length;
}

/** Whether `value` is a string the schema's type, length, pattern and checked format allow (enum aside). */
export function fitsString(schema: JsonSchema, value: unknown): value is string {
  if (typeof value !== 'string') return false;
  const length = codePoints(value);
  if (length < (schema.minLength ?? 0) || length > (schema.maxLength ?? Number.POSITIVE_INFINITY)) return false;
  if (schema.pattern !== undefined && !safeTest(schema.pattern, value)) return false;
  return schema.format === undefined || fitsFormat(schema.format, value);
}

function fitsFormat(format: string, value: string): boolean {
  const rule = (fullFormats as Record<string, unknown>)[format];
  if (rule instanceof RegExp) return rule.test(value);
  if (typeof rule === 'function') return Boolean(rule(value));
  const validate = (rule as { validate?: unknown } | undefined)?.validate;
  if (validate instanceof RegExp) return validate.test(value);
  if (typeof validate === 'function') return Boolean(validate(value));
  return true;
}

function safeTest(pattern: string, value: string): boolean {
  try {
    return new RegExp(pattern, 'u').test(value);
  } catch {
    return true;
  }
}

/**
 * The plainest string the schema allows when the contract gives no value that fits: its format's sample or its
 * pattern's, made to the length bounds; `sample` padded or cut to them otherwise. `unmade` when even that fails.
 */
export function madeString(schema: JsonSchema, base = 'sample'): string | UnmadeString {
  const min = schema.minLength ?? 0;
  const max = schema.maxLength ?? Number.POSITIVE_INFINITY;
  const known = schema.format === undefined ? undefined : FORMAT_SAMPLES[schema.format];
  // A format's own value first: Prism gives `byte` a pattern that the empty string matches too.
  const formatted = known === undefined ? undefined : fitFormat(schema.format as string, known, min, max);
  if (formatted !== undefined && fitsString(schema, formatted)) return formatted;
  if (schema.pattern !== undefined) {
    const made = patternString(schema.pattern, min, max);
    if ('value' in made && fitsString(schema, made.value)) return made.value;
    const fallback = fitLength(FORMAT_SAMPLES[schema.format ?? ''] ?? base, min, max);
    if (fitsString(schema, fallback)) return fallback;
    const why = 'unsupported' in made ? made.unsupported : `its format ${schema.format} as well`;
    return { value: fallback, unmade: `pattern ${schema.pattern}: ${why}` };
  }
  const value = formatted ?? fitLength(base, min, max);
  if (fitsString(schema, value)) return value;
  return { value, unmade: `format ${schema.format} within ${min} to ${max} characters` };
}

/** `text` padded with digits or cut to the bounds. */
export function fitLength(text: string, min: number, max: number): string {
  const points = [...text];
  if (points.length > max) return points.slice(0, max).join('');
  return points.length >= min ? text : text.padEnd(text.length + min - points.length, '0123456789');
}

// Formats with a part that takes any length: the local part of an email, a URI's path, a host's first label.
function fitFormat(format: string, sample: string, min: number, max: number): string {
  const length = codePoints(sample);
  if (length >= min && length <= max) return sample;
  const grow = Math.max(0, min - length);
  if (format === 'email' || format === 'idn-email') {
    const domain = max < length ? 'e.io' : 'example.com';
    const local = fitLength('sample', Math.max(1, min - domain.length - 1), Math.max(1, max - domain.length - 1));
    return `${local}@${domain}`;
  }
  if (format.startsWith('uri') || format.startsWith('iri') || format === 'url') return `${sample}${'0'.repeat(grow)}`;
  if (format === 'hostname' || format === 'idn-hostname') return `${'x'.repeat(Math.min(grow, 60))}${sample}`;
  return sample;
}

/** The `i`-th other string the schema allows after its plainest (an array's unique items), or undefined. */
export function otherString(schema: JsonSchema, plain: string, i: number): string | undefined {
  const at = plain.lastIndexOf('@');
  const candidates = [at > 0 ? `${plain.slice(0, at)}${i}${plain.slice(at)}` : `${plain}${i}`];
  candidates.push(`${[...plain].slice(0, -String(i).length).join('')}${i}`);
  if (schema.pattern !== undefined) {
    const grown = patternString(schema.pattern, schema.minLength ?? 0, schema.maxLength, () => 0, i);
    if ('value' in grown) candidates.push(grown.value);
  }
  return candidates.find((candidate) => candidate !== plain && fitsString(schema, candidate));
}

/**
 * A string the schema allows that another call is unlikely to give (a unique key: an email, a username), `token`
 * being a fresh draw of letters and digits; undefined when none is made (a format or pattern that leaves no room).
 */
export function freshString(schema: JsonSchema, plain: string, token: string, pick: Pick): string | undefined {
  const max = schema.maxLength ?? Number.POSITIVE_INFINITY;
  const candidates: string[] = [];
  if (schema.pattern !== undefined) {
    // Grown past the plainest value, so a class such as [a-z]+ has room for a draw.
    const made = patternString(schema.pattern, schema.minLength ?? 0, max, pick, 8);
    if ('value' in made) candidates.push(made.value);
  }
  const at = plain.lastIndexOf('@');
  if (at > 0) candidates.push(`${plain.slice(0, at)}.${token}${plain.slice(at)}`, `${token}${plain.slice(at)}`);
  if (schema.format === 'hostname' || schema.format === 'idn-hostname') candidates.push(`${token}.${plain}`);
  if (schema.format?.startsWith('uri') || schema.format === 'url') candidates.push(`${plain}/${token}`);
  if (schema.format === undefined) {
    const room = Math.max(0, Math.min(codePoints(plain), max - token.length - 1));
    candidates.push(`${[...plain].slice(0, room).join('')}-${token}`, token.slice(0, max));
  }
  return candidates.find((candidate) => candidate !== plain && fitsString(schema, candidate));
}
