// XML 1.0 §2.2 forbids most control characters even when escaped, and unpaired surrogates (a JSON `\ud800` in a
// body a target sent decodes to one); a server's raw body may contain either.
// The bidirectional overrides and isolates are allowed, but would reorder what a report shows (CVE-2021-42574);
// DEL and the C1 controls are allowed too, but U+009B is a one-character CSI to a terminal that prints a JUnit
// message, and all are parse errors in HTML (WHATWG HTML §13.2.3.5).
// biome-ignore lint/suspicious/noControlCharactersInRegex: finding control characters is this pattern's purpose.
const CONTROL = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F\uFFFE\uFFFF\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;
const UNPAIRED_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;
const ENTITIES: Readonly<Record<string, string>> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/** Text safe inside XML elements and attributes (escape-html.ts holds HTML's, which is the same). */
export function escapeXml(text: string): string {
  return text
    .replace(CONTROL, '\uFFFD')
    .replace(UNPAIRED_SURROGATE, '\uFFFD')
    .replace(/[&<>"']/g, (c) => ENTITIES[c] as string);
}
