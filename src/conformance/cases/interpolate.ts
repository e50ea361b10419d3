import { AppError } from '../../contract/app-error.js';
import { mapLeaves } from '../../contract/map-leaves.js';

const TEMPLATE = /\{\{\s*([^{}\s]+)\s*\}\}/g;
const WHOLE_TEMPLATE = /^\{\{\s*([^{}\s]+)\s*\}\}$/;
// A capture name, then keys or indexes: what lookup() below can walk. Anything else between {{ and }} is a typo.
const REFERENCE = /^([A-Za-z_][A-Za-z0-9_-]*)((?:\.[^.{}\s]+)*)$/;

/** One `{{...}}` of a scenario string, read at load: the name and the keys it walks, or why it is no reference. */
export type TemplateReference = { readonly name: string; readonly keys: readonly string[] } | { readonly problem: string };

/** Whether any string in the value holds a `{{`. */
export function holdsTemplate(value: unknown): boolean {
  if (typeof value === 'string') return value.includes('{{');
  if (Array.isArray(value)) return value.some(holdsTemplate);
  if (value !== null && typeof value === 'object') return Object.values(value).some(holdsTemplate);
  return false;
}

/**
 * Every `{{` in `text`, as the reference it opens. Each must be well formed, or interpolate() would send it
 * literally (`{{1x}}`, `{{create.body.id}`) or fail at run time, where the target would get the blame.
 */
export function templateReferences(text: string): TemplateReference[] {
  const references: TemplateReference[] = [];
  for (let open = text.indexOf('{{'); open !== -1; ) {
    const close = text.indexOf('}}', open + 2);
    if (close === -1) {
      references.push({ problem: `'${text.slice(open, open + 40)}' opens a template with {{ that is never closed with }}` });
      break;
    }
    const inner = text.slice(open + 2, close).trim();
    const match = REFERENCE.exec(inner);
    references.push(
      match
        ? { name: match[1] as string, keys: (match[2] as string).split('.').slice(1) }
        : {
            problem: `{{${inner}}} is not a reference: write {{name.body.field}}, where name is a capture (letters, digits, _ and -, not starting with a digit)`,
          },
    );
    open = text.indexOf('{{', close + 2);
  }
  return references;
}

/**
 * Replaces `{{create.body.id}}` with the captured value. A string that is one template and nothing else takes
 * the value itself, so an id above 2^53 stays a bigint with every digit and a number stays a number; inside
 * longer text the value is written out in decimal. Throws AppError('capture_missing') naming what is missing.
 */
export function interpolate(value: unknown, scope: Readonly<Record<string, unknown>>): unknown {
  return mapLeaves(value, (leaf) => (typeof leaf === 'string' ? fill(leaf, scope) : leaf));
}

function fill(text: string, scope: Readonly<Record<string, unknown>>): unknown {
  // Most strings hold no template; this is on every step's path, so they cost one search and no copy.
  if (!text.includes('{{')) return text;
  const template = compiled.get(text) ?? compile(text);
  if (typeof template === 'object' && !Array.isArray(template)) return lookup(template, scope);
  let out = '';
  for (const piece of template) out += typeof piece === 'string' ? piece : String(lookup(piece, scope));
  return out;
}

/** A `{{...}}` as the keys it walks: `create.body.id` is ['create', 'body', 'id']. */
interface Reference {
  readonly path: string;
  readonly keys: readonly string[];
}

// Each template string is read once: a step's strings are filled in on every request, and a case may send hundreds.
const compiled = new Map<string, Reference | (string | Reference)[]>();
const COMPILED_TEXTS = 10_000;

function compile(text: string): Reference | (string | Reference)[] {
  const whole = WHOLE_TEMPLATE.exec(text);
  let template: Reference | (string | Reference)[];
  if (whole) {
    template = referenceTo(whole[1] as string);
  } else {
    template = [];
    let from = 0;
    TEMPLATE.lastIndex = 0;
    for (let match = TEMPLATE.exec(text); match !== null; match = TEMPLATE.exec(text)) {
      template.push(text.slice(from, match.index), referenceTo(match[1] as string));
      from = match.index + match[0].length;
    }
    template.push(text.slice(from));
  }
  if (compiled.size >= COMPILED_TEXTS) compiled.clear();
  compiled.set(text, template);
  return template;
}

function referenceTo(path: string): Reference {
  return { path, keys: path.split('.') };
}

function lookup({ path, keys }: Reference, scope: Readonly<Record<string, unknown>>): unknown {
  const name = keys[0] as string;
  let current: unknown = scope[name];
  if (current === undefined) throw new AppError('capture_missing', `{{${path}}}: nothing was captured as '${name}'`);
  for (let i = 1; i < keys.length; i++) {
    const key = keys[i] as string;
    const next = key === 'length' && Array.isArray(current) ? current.length : stepInto(current, key);
    if (next === undefined) throw new AppError('capture_missing', `{{${path}}}: ${keys.slice(0, i).join('.')} has no '${key}'`);
    current = next;
  }
  return current;
}

function stepInto(value: unknown, key: string): unknown {
  if (value === null || typeof value !== 'object') return undefined;
  return Object.hasOwn(value, key) ? (value as Record<string, unknown>)[key] : undefined;
}
