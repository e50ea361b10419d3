import { describe, expect, it } from 'vitest';
import { MAX_DELAY_MS, readPreferences } from './read-preferences.js';

describe('readPreferences', () => {
  it('reads comma- and semicolon-separated preferences, quoted or not, case-insensitive names', () => {
    expect(readPreferences('code=503, Delay="20"; fault=reset, example=big, dynamic=true')).toEqual({
      code: 503,
      delayMs: 20,
      fault: 'reset',
      example: 'big',
      dynamic: true,
      unknown: [],
    });
  });

  it('bounds the delay and keeps what it cannot read, for the log', () => {
    expect(readPreferences('delay=999999999').delayMs).toBe(MAX_DELAY_MS);
    expect(readPreferences('delay=99999999999999999999999999').delayMs).toBe(MAX_DELAY_MS);
    expect(readPreferences('respond-async, code=5000, fault=explode, delay=-1').unknown).toEqual([
      'respond-async',
      'code=5000',
      'fault=explode',
      'delay=-1',
    ]);
  });

  it('applies a preference given twice the first time only (RFC 7240 §2), and reports the second as not applied', () => {
    const twice = readPreferences('code=503, code=404, fault=reset, fault=empty');
    expect(twice).toMatchObject({ code: 503, fault: 'reset', unknown: ['code=404', 'fault=empty'] });
  });
});
