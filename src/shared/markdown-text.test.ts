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

describe('markdownText against what GitHub links by itself', () => {
  const WJ = '\u2060';

  it('breaks mentions, issue references and bare URLs with an invisible word joiner, keeping the visible text', () => {
    const text = 'ping @octocat about #123, mail a@b.example, see https://evil.example and www.evil.example';
    const shown = markdownText(text);
    expect(shown).not.toMatch(/@[A-Za-z0-9]|#[0-9]|https?:\/\/|www\./);
    expect(shown).toContain(`@${WJ}octocat`);
    expect(shown).toContain(`\\#${WJ}123`);
    expect(shown).toContain(`https:${WJ}//evil.example`);
    expect(shown.replaceAll(WJ, '').replaceAll('\\#', '#')).toBe(text);
  });

  it('leaves no link, image or autolink syntax, and keeps a table cell one cell', () => {
    const shown = markdownText(
      '[click](https://evil.example) ![x](https://evil.example/x.png) <http://evil.example> a | b\nc \\| d',
    );
    expect(shown).not.toMatch(/(?<!\\)\[|(?<!\\)\]|<http|\n/);
    // Every pipe has an odd number of backslashes before it: none ends the cell (GFM §4.10).
    for (const match of shown.matchAll(/(\\*)\|/g)) expect((match[1] as string).length % 2).toBe(1);
  });
});
