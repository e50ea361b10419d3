/**
 * Roughly how many values parsing `text` as JSON would build: one per `{`, `[` and `,` outside strings, plus one.
 * Stops counting past `limit`. Linear, one pass; the text need not be valid JSON.
 */
export function countJsonValues(text: string, limit: number): number {
  let count = 1;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (inString) {
      if (code === BACKSLASH) i++;
      else if (code === QUOTE) inString = false;
    } else if (code === QUOTE) inString = true;
    else if (code === COMMA || code === OPEN_BRACE || code === OPEN_BRACKET) {
      if (++count > limit) return count;
    }
  }
  return count;
}

const BACKSLASH = 92;
const QUOTE = 34;
const COMMA = 44;
const OPEN_BRACE = 123;
const OPEN_BRACKET = 91;
