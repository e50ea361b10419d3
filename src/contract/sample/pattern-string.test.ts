import { describe, expect, it } from 'vitest';
import { patternString } from './pattern-string.js';

describe('patternString', () => {
  const matching: [string, number?, number?][] = [
    ['^[A-Z]{2}-\\d{3,5}$'],
    ['^(?:ab|cd)+x?$', 5],
    ['^[^a-z\\s]{4}$'],
    ['^\\u0041\\x42[\\u00e0-\\u00ff]$'],
    ['^a.c\\.d\\/e$'],
    ['^(ab|c)$', 0, 1],
    ['^[\\w-]{3,}@example\\.(com|org)$', 20],
    ['^x*[a-z]{2}$'],
    ['^[+-]?[0-9]+(\\.[0-9]{2})?$'],
  ];
  it.each(matching)('makes a string %s matches, within the lengths', (pattern, min = 0, max = Number.POSITIVE_INFINITY) => {
    const made = patternString(pattern, min, max);
    expect(made).toHaveProperty('value');
    const value = (made as { value: string }).value;
    expect(value).toMatch(new RegExp(pattern, 'u'));
    expect([...value].length).toBeGreaterThanOrEqual(min);
    expect([...value].length).toBeLessThanOrEqual(max);
  });

  it.each([
    ['^(?=.*\\d)[a-z\\d]{8}$', 'a lookahead'],
    ['^(?<!x)a$', 'a lookbehind'],
    ['^(a)\\1$', 'a back-reference'],
    ['^\\bword\\b$', 'a word boundary'],
    ['^\\p{Lu}+$', 'a Unicode property'],
    ['^[a-z$', 'no regular expression'],
  ])('names what it cannot make: %s is %s', (pattern, construct) => {
    expect(patternString(pattern)).toEqual({ unsupported: expect.stringContaining(construct) });
  });

  it('draws other strings with other picks, each matching', () => {
    let state = 3;
    const pick = (n: number) => {
      state = (state * 48271) % 2147483647;
      return state % n;
    };
    const values = new Set(
      Array.from({ length: 20 }, () => (patternString('^[a-z]{8}$', 0, 8, pick) as { value: string }).value),
    );
    expect(values.size).toBe(20);
    for (const value of values) expect(value).toMatch(/^[a-z]{8}$/);
  });
});
