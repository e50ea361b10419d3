import { describe, expect, it } from 'vitest';
import { containsSubset, subsetMismatch } from './subset-mismatch.js';

describe('show', () => {
  it('quotes a list where an object belongs by its start, not whole', () => {
    const mismatch = subsetMismatch(
      Array.from({ length: 50_000 }, () => ({ id: 1 })),
      { id: 1 },
    );
    expect(mismatch).toMatch(/^body: expected an object, received \[\{"id":1\}/);
    expect(mismatch?.length).toBeLessThan(1200);
  });
});

describe('containsSubset', () => {
  // Pairs where the answer is known, each checked against the path-building walk too: the two must never differ.
  const pairs: [unknown, unknown, boolean][] = [
    [{ id: 1, name: 'Rex', extra: true }, { id: 1, name: 'Rex' }, true],
    [{ id: 1 }, { id: 1, name: 'Rex' }, false],
    [{ id: 9007199254740993n }, { id: 9007199254740993n }, true],
    [{ id: 9007199254740992 }, { id: 9007199254740993n }, false],
    [{ id: 2 }, { id: 2n }, true],
    [0, -0, true],
    [1.5, 1.5, true],
    [Number.NaN, Number.NaN, true],
    [[1, 2], [1, 2], true],
    [[1, 2, 3], [1, 2], false],
    [[{ a: 1 }], [{ a: 2 }], false],
    [null, {}, false],
    [[], {}, false],
    ['1', 1, false],
    [{ a: { b: [1, { c: 'x' }] } }, { a: { b: [1, { c: 'x' }] } }, true],
    [{ a: { b: [1, { c: 'x' }] } }, { a: { b: [1, { c: 'y' }] } }, false],
    // Text: canonically equivalent (NFC and NFD) is the same value; compatibility forms (NFKC: ﬁ, fi) are not.
    [{ name: 'caf\u00e9' }, { name: 'cafe\u0301' }, true],
    [{ name: 'cafe\u0301' }, { name: 'caf\u00e9' }, true],
    [{ name: 'Paddedx' }, { name: 'Padded x' }, false],
    [{ name: 'Ã©' }, { name: '\u00e9' }, false],
    [{ name: 'x'.repeat(255) }, { name: 'x'.repeat(10_000) }, false],
    [{ name: 'fi' }, { name: '\ufb01' }, false],
  ];

  it.each(pairs.map((pair, i) => [i, ...pair] as const))(
    'pair %i: the verdict subsetMismatch gives too',
    (_, actual, expected, contains) => {
      expect(containsSubset(actual, expected)).toBe(contains);
      expect(subsetMismatch(actual, expected) === undefined).toBe(contains);
    },
  );
});
