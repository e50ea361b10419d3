import { describe, expect, it } from 'vitest';
import { compileSchema } from './compile-schema.js';
import {
  type JsonValue,
  MAX_JSON_DEPTH,
  parseFixedJson,
  parseIntegerText,
  parseJson,
  stringifyJson,
  toValidatable,
} from './lossless-json.js';

describe('lossless JSON', () => {
  it('keeps integers beyond 2^53 exact, as bigint, and plain numbers otherwise', () => {
    const value = parseJson('{"a":9007199254740993,"b":42,"c":1.5,"d":-9223372036854775808}') as Record<string, unknown>;
    expect(value).toEqual({ a: 9007199254740993n, b: 42, c: 1.5, d: -9223372036854775808n });
    expect(stringifyJson(value)).toBe('{"a":9007199254740993,"b":42,"c":1.5,"d":-9223372036854775808}');
  });

  it('writes bigints as numbers anywhere, indented or not, and a string that looks like a marked bigint as a string', () => {
    const value = { list: [1n, { deep: -9223372036854775808n }], name: 'Rex' };
    expect(stringifyJson(value)).toBe('{"list":[1,{"deep":-9223372036854775808}],"name":"Rex"}');
    expect(stringifyJson(value, 2)).toBe(
      JSON.stringify({ list: [1, { deep: 0 }], name: 'Rex' }, null, 2).replace('0', '-9223372036854775808'),
    );
    const lookalike = { name: '\u0000\u0001#int:5', id: 9223372036854775807n };
    expect(parseJson(stringifyJson(lookalike))).toEqual(lookalike);
    expect(stringifyJson(7n)).toBe('7');
    expect(() => stringifyJson(undefined)).toThrow(TypeError);
  });

  it('reads text with and without long digit runs alike: values, repeated keys, errors', () => {
    // A 16-digit string sends the text through lossless-json; without it JSON.parse reads it.
    const slow = (text: string) => (parseJson(`[${text}, "1234567890123456"]`) as JsonValue[])[0];
    const samples = [
      '{"a":1,"a":2}',
      '{"a":{"b":[1,2]},"a":{"b":[3]}}',
      '[-0, 1e300, 0.1, 123456789012345, true, null, "\\u00e9"]',
    ];
    for (const text of samples) expect(parseJson(text), text).toEqual(slow(text));
    expect(parseJson('{"a":1,"a":2}')).toEqual({ a: 2 });
    const errorOf = (text: string) => {
      try {
        parseJson(text);
      } catch (error) {
        return (error as Error).message;
      }
      return 'parsed';
    };
    for (const [bad, badWithLongRun] of [
      ['{"a":1,}', '{"a":1234567890123456,}'],
      ['[1 2]', '[1234567890123456 2]'],
      ['{', '{"a":1234567890123456'],
      ['', ''],
    ] as const) {
      expect(errorOf(bad), bad).toMatch(/position \d+/);
      expect(errorOf(badWithLongRun), badWithLongRun).toMatch(/position \d+/);
    }
  });

  it('finds long numbers only where numbers are: never inside strings, never as keys', () => {
    expect(parseJson('["id 9223372036854775808", 9223372036854775808, "1e-400", "v1.2.3"]')).toEqual([
      'id 9223372036854775808',
      9223372036854775808n,
      '1e-400',
      'v1.2.3',
    ]);
    expect(parseJson('{"a":"x\\"9223372036854775808","b":[1e20,-9223372036854775809]}')).toEqual({
      a: 'x"9223372036854775808',
      b: [100000000000000000000n, -9223372036854775809n],
    });
    // Pretty-printed, at the top, and in strings after a comma or in hex (a run mark): each where it stands.
    expect(parseJson('{\n  "id": 9223372036854775808,\n  "n": [ 1e2 ]\n}')).toEqual({ id: 9223372036854775808n, n: [100] });
    expect(parseJson(' 9223372036854775808 ')).toBe(9223372036854775808n);
    expect(parseJson('["a, 9223372036854775808", "Rex 62e545b9", "12:00:00.000Z", 1.25]')).toEqual([
      'a, 9223372036854775808',
      'Rex 62e545b9',
      '12:00:00.000Z',
      1.25,
    ]);
    expect(parseJson('{"categoryId": \t1e-400}')).toEqual({ categoryId: Number.MIN_VALUE });
    // A string that starts with U+0000 is kept as the text wrote it.
    expect(parseJson('["\\u0000123", 9223372036854775808]')).toEqual(['\u0000123', 9223372036854775808n]);
    // So is one that starts as the swap's own mark does.
    expect(parseJson('["\\u0000\\u0001#int:5", 9223372036854775808]')).toEqual(['\u0000\u0001#int:5', 9223372036854775808n]);
    const proto = parseJson('{"__proto__": 9223372036854775808}') as Record<string, unknown>;
    expect(Object.getPrototypeOf(proto)).toBe(Object.prototype);
    expect(Object.getOwnPropertyDescriptor(proto, '__proto__')?.value).toBe(9223372036854775808n);
    expect(() => parseJson('{9223372036854775808: 1}')).toThrow(/position \d+/);
    expect(() => parseJson('[00009223372036854775808]')).toThrow(/position \d+/);
    expect(() => parseJson(`{9223372036854775808${' '.repeat(100)}: 1}`)).toThrow(/position \d+/);
  });

  it('judges a fraction or an exponent on its exact value, and never reads a non-integer as an integer', () => {
    expect(parseJson('[1.0, 1e3, 9223372036854775807.0, 92233720368547758.07e2, 1.5, -2.50, 0.0, 1e400]')).toEqual([
      1,
      1000,
      9223372036854775807n,
      9223372036854775807n,
      1.5,
      -2.5,
      0,
      Number.POSITIVE_INFINITY,
    ]);
    // Valid JSON whose double is an integer: the double beside it, on the side of the value (NaN past 2^53).
    expect(
      parseJson('[1e-400, -1e-400, 0.99999999999999999999, 2.00000000000000000001, -12345678.0000000001, 9007199254740993.5]'),
    ).toEqual([Number.MIN_VALUE, -Number.MIN_VALUE, 0.9999999999999999, 2.0000000000000004, -12345678.000000002, Number.NaN]);
    expect(parseJson('{"weight": 2.00000000000000000001, "id": 9223372036854775808}')).toEqual({
      weight: 2.0000000000000004,
      id: 9223372036854775808n,
    });
  });

  it('reads integer text exactly and refuses anything else', () => {
    expect(parseIntegerText('12')).toBe(12);
    expect(parseIntegerText('9223372036854775807')).toBe(9223372036854775807n);
    expect(parseIntegerText('1.0')).toBeUndefined();
    expect(parseIntegerText(' 1')).toBeUndefined();
  });

  it('gives int64 validation the right verdict at the boundaries', () => {
    const validate = compileSchema({ type: 'integer', format: 'int64' }, 'v');
    for (const ok of ['9223372036854775807', '-9223372036854775808', '9007199254740993']) {
      expect(validate(parseJson(ok)), ok).toEqual([]);
    }
    for (const bad of ['9223372036854775808', '-9223372036854775809', '18446744073709551616']) {
      expect(validate(parseJson(bad)), bad).toHaveLength(1);
    }
  });

  it('refuses text nested deeper than MAX_JSON_DEPTH before building it, counting no bracket inside a string', () => {
    const nested = (depth: number) => `${'['.repeat(depth)}${']'.repeat(depth)}`;
    expect(() => parseJson(nested(MAX_JSON_DEPTH))).not.toThrow();
    expect(() => parseJson(nested(MAX_JSON_DEPTH + 1))).toThrow(RangeError);
    expect(() => parseJson('['.repeat(500_000))).toThrow(/nest more than 256 deep/);
    expect(parseJson(`["\\"${'['.repeat(300)}", {"a": "${'{'.repeat(300)}"}]`)).toHaveLength(2);
  });

  it('returns the same object when there is no bigint to replace', () => {
    const value = { a: [1, { b: 2 }] };
    expect(toValidatable(value)).toBe(value);
    expect(toValidatable({ a: [1n] })).toEqual({ a: [1] });
  });

  it('reads a fixed answer as parseJson does, and hands it to validation as it is', () => {
    for (const text of ['{"a":[1,{"b":2}]}', '[{"id":9007199254740993}]', '{"id":-9223372036854775809}', '"x"']) {
      const fixed = parseFixedJson(text);
      expect(fixed, text).toEqual(parseJson(text));
      expect(toValidatable(fixed), text).toEqual(toValidatable(parseJson(text)));
    }
    const plain = parseFixedJson('{"a":[1,{"b":2}]}');
    expect(toValidatable(plain)).toBe(plain);
    expect(toValidatable(parseFixedJson('[{"id":9007199254740993}]'))).toEqual([{ id: 9007199254740992 }]);
  });
});
