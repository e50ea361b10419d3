import { describe, expect, it } from 'vitest';
import { show } from './show-value.js';

describe('show', () => {
  it('writes a value as JSON, int64 ids as their digits', () => {
    expect(show({ id: 9007199254740993n, name: 'Rex', tags: ['a', null] })).toBe(
      '{"id":9007199254740993,"name":"Rex","tags":["a",null]}',
    );
    expect(show(undefined)).toBe('(nothing)');
  });

  it('writes a huge or deep value only as far as a person reads, saying how many items a list had', () => {
    const list = Array.from({ length: 150_000 }, (_, i) => ({ id: i, name: 'Rex' }));
    const shown = show(list);
    expect(shown.length).toBeLessThan(1100);
    expect(shown).toMatch(/^\[\{"id":0,"name":"Rex"\},/);
    expect(shown).toContain('150000 items');
    expect(show('x'.repeat(10_000_000)).length).toBeLessThan(1100);
    let deep: unknown = 1;
    for (let i = 0; i < 100_000; i++) deep = [deep];
    expect(show(deep).length).toBeLessThan(1100);
  });
});
