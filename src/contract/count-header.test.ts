import { describe, expect, it } from 'vitest';
import { countHeader } from './count-header.js';
import type { Operation } from './operation.js';

const listing = (...names: string[]) =>
  ({
    responses: [
      { code: '400', description: undefined, headers: [{ name: 'x-total-count', required: true }], contents: [] },
      { code: '200', description: undefined, headers: names.map((name) => ({ name, required: false })), contents: [] },
    ],
  }) as unknown as Operation;

describe('countHeader', () => {
  it('names a documented success header whose whole name says it counts every match', () => {
    expect(countHeader(listing('x-total-count'))).toBe('x-total-count');
    expect(countHeader(listing('link', 'x-total'))).toBe('x-total');
    expect(countHeader(listing('total-count'))).toBe('total-count');
  });

  it('takes no other number, nor one only an error documents', () => {
    expect(countHeader(listing('x-total-pages', 'x-rate-limit-total', 'x-count'))).toBeUndefined();
    expect(countHeader(listing())).toBeUndefined();
  });
});
