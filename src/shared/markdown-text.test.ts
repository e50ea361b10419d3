import { describe, expect, it } from 'vitest';
import { markdownText } from './markdown-text.js';

describe('markdownText', () => {
  it('makes tags, pipes, backticks and line breaks inert', () => {
    const shown = markdownText('<img src=x onerror=alert(1)> | `code` [a](http://x)\n# h');
    expect(shown).not.toMatch(/<img|(?<!\\)\||(?<!\\)`|\n/);
    expect(shown).toContain('&lt;img src=x onerror=alert(1)&gt;');
  });

  it('replaces bidirectional overrides and line separators', () => {
    expect(markdownText('a\u202eb\u2028c\u2029d é')).toBe('a\uFFFDb\uFFFDc\uFFFDd é');
  });
});
