/**
 * A value as JSON for people: int64 ids as their exact digits (not strings), nothing as `(nothing)`, and at most
 * about SHOWN_CHARS characters, written only that far: a 10 MiB list a target sent where an object belongs is
 * shown by its start and its length, not copied into every finding.
 */
export function show(value: unknown): string {
  if (value === undefined) return '(nothing)';
  const out = { text: '' };
  write(value, out);
  // Each list and object stops once past SHOWN_CHARS, so the text ends at most one item later.
  return out.text.length > 2 * SHOWN_CHARS ? `${out.text.slice(0, 2 * SHOWN_CHARS)}…` : out.text;
}

const SHOWN_CHARS = 500;
const SHOWN_DEPTH = 32;

function write(value: unknown, out: { text: string }, depth = 0): void {
  if (depth > SHOWN_DEPTH) {
    out.text += '…';
  } else if (typeof value === 'string') {
    out.text += JSON.stringify(value.length > SHOWN_CHARS ? value.slice(0, SHOWN_CHARS) : value);
  } else if (typeof value === 'bigint') {
    out.text += String(value);
  } else if (value === null || typeof value !== 'object') {
    out.text += JSON.stringify(value) ?? String(value);
  } else if (Array.isArray(value)) {
    out.text += '[';
    for (let i = 0; i < value.length; i++) {
      if (out.text.length > SHOWN_CHARS) {
        out.text += `… ${value.length} items`;
        break;
      }
      if (i > 0) out.text += ',';
      write(value[i] === undefined ? null : value[i], out, depth + 1);
    }
    out.text += ']';
  } else {
    out.text += '{';
    let first = true;
    for (const [key, item] of Object.entries(value)) {
      if (item === undefined) continue;
      if (out.text.length > SHOWN_CHARS) {
        out.text += '…';
        break;
      }
      out.text += `${first ? '' : ','}${JSON.stringify(key)}:`;
      first = false;
      write(item, out, depth + 1);
    }
    out.text += '}';
  }
}
