import { AppError } from '../contract/app-error.js';

const TEMPLATE = /\{\{\s*([^{}\s]+)\s*\}\}/g;
const WHOLE_TEMPLATE = /^\{\{\s*([^{}\s]+)\s*\}\}$/;

/**
 * Replaces `{{create.body.id}}` with the captured value. A string that is one template and nothing else takes
 * the value itself, so an id above 2^53 stays a bigint with every digit and a number stays a number; inside
 * longer text the value is written out in decimal. Throws AppError('capture_missing') naming what is missing.
 */
export function interpolate(value: unknown, scope: Readonly<Record<string, unknown>>): unknown {
  if (typeof value === 'string') {
    const whole = WHOLE_TEMPLATE.exec(value);
    if (whole) return lookup(whole[1] as string, scope);
    return value.replace(TEMPLATE, (_, path: string) => String(lookup(path, scope)));
  }
  if (Array.isArray(value)) return value.map((item) => interpolate(item, scope));
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, interpolate(item, scope)]));
  }
  return value;
}

function lookup(path: string, scope: Readonly<Record<string, unknown>>): unknown {
  const [name, ...rest] = path.split('.');
  let current: unknown = scope[name as string];
  if (current === undefined) throw new AppError('capture_missing', `{{${path}}}: nothing was captured as '${name}'`);
  let walked = name as string;
  for (const key of rest) {
    const next = key === 'length' && Array.isArray(current) ? current.length : stepInto(current, key);
    if (next === undefined) throw new AppError('capture_missing', `{{${path}}}: ${walked} has no '${key}'`);
    current = next;
    walked += `.${key}`;
  }
  return current;
}

function stepInto(value: unknown, key: string): unknown {
  if (value === null || typeof value !== 'object') return undefined;
  return Object.hasOwn(value, key) ? (value as Record<string, unknown>)[key] : undefined;
}
