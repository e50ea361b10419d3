import { UNSAFE_CHARACTERS } from './terminal-text.js';

// The punctuation that can open or close markup inside a line: emphasis, code spans, links and images, table
// cells, strikethrough, entities. A backslash before it makes it a literal character (CommonMark §2.4). Target
// text is never at the start of a line here, so list and heading markers need no escape.
const MARKUP = /[\\`*_[\]|~#]/g;
// The characters that start a tag or an entity in the HTML a Markdown renderer passes through.
const HTML: Readonly<Record<string, string>> = { '&': '&amp;', '<': '&lt;', '>': '&gt;' };
// What GitHub links after rendering, in the text itself: @name mentions (and name@host addresses), #123 issue
// references, and bare URLs (GFM autolinks extension: `http://`, `https://`, `www.`). A backslash escape does not
// stop them, since they are found in the rendered text; a WORD JOINER (U+2060) does: it has no width and shows
// nothing, so the text reads the same, and no name, number or scheme runs on across it.
const AUTOLINKED = /[@#]|:(?=\/\/)|\bwww(?=\.)/gi;
const WORD_JOINER = '\u2060';

/**
 * Text a target sent, made inert inside Markdown, on one line (a table cell stays a cell): `<` and `&` become
 * entities, so `<script>`, `<img onerror>` or an `<https://…>` autolink never reaches GitHub's renderer as one,
 * Markdown punctuation is escaped, so backticks, pipes and brackets (`[x](y)`, `![x](y)`) are shown, not
 * interpreted, mentions, issue references and bare URLs are not linked, and control and bidirectional
 * characters are replaced.
 */
export function markdownText(text: string): string {
  return text
    .replace(/\r\n|[\r\n\t]/g, ' ')
    .replace(UNSAFE_CHARACTERS, '\uFFFD')
    .replace(MARKUP, (c) => `\\${c}`)
    .replace(AUTOLINKED, (c) => `${c}${WORD_JOINER}`)
    .replace(/[&<>]/g, (c) => HTML[c] as string);
}
