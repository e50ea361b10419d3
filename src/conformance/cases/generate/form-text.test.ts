import { describe, expect, it } from 'vitest';
import { formText } from './form-text.js';

describe('formText', () => {
  it('writes flat fields as a form, an array as its key repeated, and leaves nulls out', () => {
    expect(formText({ duration: 'once', percent_off: 25, tags: ['a b', 'c&d'], note: null, big: 9007199254740993n })).toBe(
      'duration=once&percent_off=25&tags=a+b&tags=c%26d&big=9007199254740993',
    );
  });

  it('writes nothing for what a form cannot hold without an encoding object', () => {
    expect(formText({ owner: { id: 1 } })).toBeUndefined();
    expect(formText({ lines: [{ id: 1 }] })).toBeUndefined();
    expect(formText(['a'])).toBeUndefined();
    expect(formText('text')).toBeUndefined();
  });
});
