import { escapeXml } from './escape-xml.js';

// The punctuation that can open or close markup inside a line: emphasis, code spans, links and images, table
// cells, strikethrough, entities. A backslash before it makes it a literal character (CommonMark §2.4). Target
// text is never at the start of a line here, so list and heading markers need no escape.
const MARKUP = /[\\`*_[\]|~#]/g;

/**
 * Text a target sent, made inert inside Markdown, on one line (a table cell stays a cell): HTML special
 * characters become entities, so `<script>` or `<img onerror>` never reaches GitHub's renderer as a tag, and
 * Markdown punctuation is escaped, so backticks, pipes and brackets are shown, not interpreted.
 */
export function markdownText(text: string): string {
  return escapeXml(text.replace(/\r\n|[\r\n]/g, ' ').replace(MARKUP, (c) => `\\${c}`));
}
