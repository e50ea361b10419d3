import { describe, expect, it } from 'vitest';
import { createRedactor } from './create-redactor.js';

describe('createRedactor', () => {
  it('redacts the key as sent, as escaped in a JSON string, and as percent-encoded in a URL', () => {
    const key = 'k"ey\\12/34 é';
    const redact = createRedactor(key);
    const echoed = `${JSON.stringify({ got: key })} /v1/pets?key=${encodeURIComponent(key)} raw ${key}`;
    const out = redact(echoed);
    expect(out).toBe('{"got":"***"} /v1/pets?key=*** raw ***');
  });

  it('redacts even a key of a few characters', () => {
    expect(createRedactor('abc')('{"message":"unknown key abc"}')).toBe('{"message":"unknown key ***"}');
  });

  it('leaves text alone when there is no key', () => {
    expect(createRedactor(undefined)('Bearer abc')).toBe('Bearer abc');
  });
});
