import { describe, expect, it } from 'vitest';
import { countJsonValues } from './count-json-values.js';

describe('countJsonValues', () => {
  it('counts the containers and the separators outside strings', () => {
    expect(countJsonValues('[{"a":1,"b":[2,3]},{}]', 100)).toBe(8);
    expect(countJsonValues('"a,b,[{\\",c"', 100)).toBe(1);
    expect(countJsonValues('7', 100)).toBe(1);
  });

  it('stops past the limit', () => {
    expect(countJsonValues(`[${'{},'.repeat(1000)}{}]`, 10)).toBe(11);
  });
});
