import { describe, expect, it } from 'vitest';
import { acceptsAny } from './accepts-any.js';

const JSON_ONLY = ['application/json'];

describe('acceptsAny', () => {
  it('accepts JSON under its own name, its type wildcard, */* and an empty header', () => {
    for (const accept of [
      'application/json',
      'APPLICATION/JSON; charset=utf-8',
      'application/*',
      '*/*',
      'text/html, */*;q=0.8',
      ' ',
    ]) {
      expect(acceptsAny(accept, JSON_ONLY), accept).toBe(true);
    }
  });

  it('refuses JSON when no range names it, or the most specific one gives it q=0', () => {
    for (const accept of [
      'application/xml',
      'text/*',
      'application/json;q=0',
      'application/json; q=0, */*',
      '*/*;q=0',
      'application/*;q=0, text/html',
    ]) {
      expect(acceptsAny(accept, JSON_ONLY), accept).toBe(false);
    }
  });

  it('lets a more specific range win over a less specific one', () => {
    expect(acceptsAny('*/*;q=0, application/json', JSON_ONLY)).toBe(true);
    expect(acceptsAny('application/*;q=0, application/json;q=0.5', JSON_ONLY)).toBe(true);
  });

  it('accepts when any of the media types is acceptable', () => {
    expect(acceptsAny('application/xml', ['application/json', 'application/xml'])).toBe(true);
  });
});
