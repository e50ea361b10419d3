import { describe, expect, it } from 'vitest';
import { createSecretRedactor } from './mock-redact-secrets.js';

describe('createSecretRedactor', () => {
  const redact = createSecretRedactor(['s3cret key/1']);

  it('replaces a secret as sent, percent-encoded, in base64 and in base64url', () => {
    const base64 = Buffer.from('s3cret key/1').toString('base64');
    const base64url = Buffer.from('s3cret key/1').toString('base64url');
    const text = `a s3cret key/1 b ${encodeURIComponent('s3cret key/1')} c ${base64} d ${base64url}`;
    expect(redact(text)).toBe('a [redacted] b [redacted] c [redacted] d [redacted]');
  });

  it('returns a text without a secret as it is', () => {
    const text = 'nothing to hide';
    expect(redact(text)).toBe(text);
  });
});
