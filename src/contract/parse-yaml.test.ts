import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { packageRoot } from './package-root.js';
import { parseYaml, type YamlPath } from './parse-yaml.js';

// A comment holding an anchor-like token sends a file down the precise (position-keeping) path.
const PRECISE = '\n# &precise\n';

function collectionPaths(value: unknown, at: YamlPath = []): YamlPath[] {
  if (value === null || typeof value !== 'object') return [];
  return [
    at,
    ...Object.entries(value).flatMap(([key, item]) => collectionPaths(item, [...at, Array.isArray(value) ? Number(key) : key])),
  ];
}

describe('parseYaml', () => {
  it('keeps the digits of integers a double would round, and leaves the others numbers', () => {
    const { value } = parseYaml('x.yaml', 'a: 9223372036854775807\nb: -9007199254740993\nc: 42\nd: 0x7FFFFFFFFFFFFFFF\n', 'bad', {
      exactIntegers: true,
    });
    expect(value).toEqual({ a: 9223372036854775807n, b: -9007199254740993n, c: 42, d: 9223372036854775807n });
    expect(parseYaml('x.yaml', 'a: 9223372036854775807\n', 'bad').value).toEqual({ a: 2 ** 63 });
  });

  it('gives the same values and the same line for every mapping and sequence as the position-keeping parser', () => {
    const dir = join(packageRoot(), 'conformance');
    const files = [...readdirSync(dir).map((name) => join(dir, name)), join(packageRoot(), 'openapi.yaml')];
    for (const file of files) {
      const text = readFileSync(file, 'utf8');
      const fast = parseYaml(file, text, 'bad', { exactIntegers: true });
      const precise = parseYaml(file, text + PRECISE, 'bad', { exactIntegers: true });
      expect(fast.value, file).toEqual(precise.value);
      for (const path of collectionPaths(fast.value)) {
        expect(fast.lineOf(path), `${file} ${path.join('.')}`).toBe(precise.lineOf(path));
      }
    }
  });

  it('places a collection after comments and blank lines on the line where it starts', () => {
    const { lineOf } = parseYaml('x.yaml', 'a:\n  # why\n\n  - b: 1\n    c: [1]\n', 'bad');
    expect(lineOf(['a'])).toBe(4);
    expect(lineOf(['a', 0])).toBe(4);
    expect(lineOf(['a', 0, 'c'])).toBe(5);
    expect(lineOf(['a', 0, 'b'])).toBe(4);
    expect(lineOf(['a', 7, 'zzz'])).toBe(4);
  });

  it('names the line and column of a syntax error', () => {
    expect(() => parseYaml('x.yaml', 'a: 1\nb: [1, 2\n', 'bad')).toThrow(/^Failed to read x\.yaml: line \d+, column \d+: /);
    expect(() => parseYaml('x.yaml', 'a: 1\na: 2\n', 'bad')).toThrow(/x\.yaml: line 2, column 1: .*(unique|duplicate)/i);
  });

  it('refuses aliases that expand without bound instead of handing on an exponential graph', () => {
    const laughs = ['a: &a [x, x, x, x, x, x, x, x, x, x]'];
    for (let i = 1; i < 12; i++)
      laughs.push(
        `${String.fromCharCode(97 + i)}: &${String.fromCharCode(97 + i)} [${Array(10)
          .fill(`*${String.fromCharCode(96 + i)}`)
          .join(', ')}]`,
      );
    expect(() => parseYaml('x.yaml', laughs.join('\n'), 'bad')).toThrow(/alias/i);
    expect(() => parseYaml('x.yaml', 'a: 1\nbody: &a [1, *a]\n', 'bad')).toThrow(
      /^Failed to read x\.yaml: line 2, column 14: alias \*a refers to a node that contains it$/,
    );
    expect(() => parseYaml('x.yaml', 'paths: &p {x: {y: *p}}\n', 'bad')).toThrow(/line 1, .*alias \*p/);
    expect(parseYaml('x.yaml', 'base: &b {k: 1}\nuse: *b\nnote: "a & b"\n', 'bad').value).toEqual({
      base: { k: 1 },
      use: { k: 1 },
      note: 'a & b',
    });
  });
});
