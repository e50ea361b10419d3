import { describe, expect, it } from 'vitest';
import { terminalText } from './terminal-text.js';

describe('terminalText', () => {
  it('shows escape sequences, the bell, line breaks and bidi overrides as escapes', () => {
    const hostile = '\u001b[32mVerdict: PASSED\u001b[0m\u0007\r\nFAIL\u0000\u009b2J\u202eevil\u2028a\u2029b';
    const shown = terminalText(hostile);
    // biome-ignore lint/suspicious/noControlCharactersInRegex: asserting that none is left.
    expect(shown).not.toMatch(/[\u0000-\u001f\u007f-\u009f\u202e\u2028\u2029]/);
    expect(shown).toBe('\\e[32mVerdict: PASSED\\e[0m\\x07\\r\\nFAIL\\x00\\x9b2J\\u202eevil\\u2028a\\u2029b');
  });

  it('leaves ordinary text, accents included, as it is', () => {
    expect(terminalText('Rex é 名前 {"id":1}')).toBe('Rex é 名前 {"id":1}');
  });
});
