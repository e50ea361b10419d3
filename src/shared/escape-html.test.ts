import { describe, expect, it } from 'vitest';
import { escapeHtml } from './escape-html.js';

describe('escapeHtml', () => {
  it('escapes markup and replaces control characters and the bidirectional overrides', () => {
    expect(escapeHtml('<script>"x"&\'y\'</script>\u0000\u202e')).toBe(
      '&lt;script&gt;&quot;x&quot;&amp;&#39;y&#39;&lt;/script&gt;\uFFFD\uFFFD',
    );
  });
});
