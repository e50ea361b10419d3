import { describe, expect, it } from 'vitest';
import { escapeXml } from './escape-xml.js';

describe('escapeXml', () => {
  it('replaces what XML 1.0 cannot hold, even escaped, and escapes markup', () => {
    expect(escapeXml('a\u0000b\ud800c\udc00d\ud83d\ude00<&>"\'')).toBe(
      'a\uFFFDb\uFFFDc\uFFFDd\ud83d\ude00&lt;&amp;&gt;&quot;&#39;',
    );
  });

  it('replaces the bidirectional overrides and isolates that would reorder what a report shows', () => {
    expect(escapeXml('pass\u202eliaf\u2066x\u2069 é')).toBe('pass\uFFFDliaf\uFFFDx\uFFFD é');
  });

  it('replaces DEL and the C1 controls, U+009B (a one-character CSI) among them, keeping the letters after them', () => {
    expect(escapeXml('a\u007fb\u009b31mc\u0085d\u00a0é')).toBe('a\uFFFDb\uFFFD31mc\uFFFDd\u00a0é');
  });
});
