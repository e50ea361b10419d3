import { describe, expect, it } from 'vitest';
import { mergePatch } from './merge-patch.js';

describe('mergePatch (RFC 7396)', () => {
  // RFC 7396 Appendix A, the test cases.
  it.each([
    [{ a: 'b' }, { a: 'c' }, { a: 'c' }],
    [{ a: 'b' }, { b: 'c' }, { a: 'b', b: 'c' }],
    [{ a: 'b' }, { a: null }, {}],
    [{ a: 'b', b: 'c' }, { a: null }, { b: 'c' }],
    [{ a: ['b'] }, { a: 'c' }, { a: 'c' }],
    [{ a: 'c' }, { a: ['b'] }, { a: ['b'] }],
    [{ a: { b: 'c' } }, { a: { b: 'd', c: null } }, { a: { b: 'd' } }],
    [{ a: [{ b: 'c' }] }, { a: [1] }, { a: [1] }],
    [
      ['a', 'b'],
      ['c', 'd'],
      ['c', 'd'],
    ],
    [{ a: 'b' }, ['c'], ['c']],
    [{ a: 'foo' }, null, null],
    [{ a: 'foo' }, 'bar', 'bar'],
    [{ e: null }, { a: 1 }, { e: null, a: 1 }],
    [[1, 2], { a: 'b', c: null }, { a: 'b' }],
    [{}, { a: { bb: { ccc: null } } }, { a: { bb: {} } }],
  ])('merges %j with %j into %j', (target, patch, result) => {
    expect(mergePatch(target, patch)).toEqual(result);
  });

  it('changes neither input, and stores a __proto__ member as a member', () => {
    const target = { a: { b: 1 } };
    const patch = JSON.parse('{"a":{"c":2},"__proto__":{"polluted":true}}');
    const merged = mergePatch(target, patch) as Record<string, unknown>;
    expect(target).toEqual({ a: { b: 1 } });
    expect(Object.getPrototypeOf(merged)).toBe(Object.prototype);
    expect(Object.hasOwn(merged, '__proto__')).toBe(true);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('refuses a patch nested past 256 levels with a 400, not a stack overflow', () => {
    const deep = JSON.parse(`${'{"a":'.repeat(300)}1${'}'.repeat(300)}`);
    expect(() => mergePatch({}, deep)).toThrow(expect.objectContaining({ code: 'validation_failed' }));
  });
});
