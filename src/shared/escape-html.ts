import { escapeXml } from './escape-xml.js';

/**
 * Text safe inside HTML elements and quoted attributes. HTML needs the same five entities as XML, and the
 * characters XML cannot hold are parse errors or reordering marks in HTML too (WHATWG HTML §13.2.5), so a report
 * shows target text alike in both.
 */
export function escapeHtml(text: string): string {
  return escapeXml(text);
}
