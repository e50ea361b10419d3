import { UNSAFE_CHARACTERS } from './terminal-text.js';

// The punctuation that can open or close markup inside a line: emphasis, code spans, links and images, table
// cells, strikethrough, entities. A backslash before it makes it a literal character (CommonMark §2.4). Target
// text is never at the start of a line here, so list and heading markers need no escape.
const MARKUP = /[\\`*_[\]|~#]/g;
// The characters that start a tag or an entity in the HTML a Markdown renderer passes through.
const HTML: Readonly<Record<string, string>> = { '&': '&amp;', '<': '&lt;', '>': '&gt;' };

/**
 * Text a target sent, made inert inside Markdown, on one line (a table cell stays a cell): `<` and `&` become
 * entities, so `<script>` or `<img onerror>` never reaches GitHub's renderer as a tag, Markdown punctuation is
 * escaped, so backticks, pipes and brackets are shown, not interpreted, and control and bidirectional characters are replaced.
 */
export function markdownText(text: string): string {
  return text
    .replace(/\r\n|[\r\n\t]/g, ' ')
    .replace(UNSAFE_CHARACTERS, '\uFFFD')
    .replace(MARKUP, (c) => `\\${c}`)
    .replace(/[&<>]/g, (c) => HTML[c] as string);
}
