// C0 controls and DEL (ESC starts every ANSI sequence, BEL rings, CR rewrites a line), C1 controls (U+009B is a
// one-character CSI), and the bidirectional overrides and isolates that reorder what a line appears to say
// (CVE-2021-42574, "Trojan Source"), and the line and paragraph separators U+2028 and U+2029, which some
// terminals and every log viewer that follows Unicode break a line at.
// biome-ignore lint/suspicious/noControlCharactersInRegex: finding control characters is this pattern's purpose.
export const UNSAFE_CHARACTERS = /[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;

const NAMED: Readonly<Record<string, string>> = { '\n': '\\n', '\r': '\\r', '\t': '\\t', '\u001b': '\\e' };

/**
 * Text a target sent, made safe to print on a terminal on one line: every control character is shown as an
 * escape (`\e`, `\x07`, `\u202e`), so a target can neither move the cursor, colour a line, ring the bell nor
 * start a line of its own (a fake `Verdict: PASSED`).
 */
export function terminalText(text: string): string {
  return text.replace(UNSAFE_CHARACTERS, (c) => NAMED[c] ?? escapeCode(c.charCodeAt(0)));
}

function escapeCode(code: number): string {
  return code <= 0xff ? `\\x${code.toString(16).padStart(2, '0')}` : `\\u${code.toString(16).padStart(4, '0')}`;
}
