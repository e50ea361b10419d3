import { describe, expect, it } from 'vitest';
import { isCredentialName, maskAuthorization, maskHeader, maskSetCookie, maskUrlCredentials } from './mask-credentials.js';

describe('mask-credentials', () => {
  it('names credential headers by their name, and leaves challenges, CORS and idempotency keys alone', () => {
    for (const name of [
      'Authorization',
      'Proxy-Authorization',
      'Cookie',
      'X-Api-Key',
      'apikey',
      'X-Auth-Token',
      'X-CSRF-Token',
      'X-Session-Id',
      'X-Client-Secret',
      'Key',
    ]) {
      expect(isCredentialName(name), name).toBe(true);
    }
    for (const name of [
      'WWW-Authenticate',
      'Access-Control-Allow-Credentials',
      'Idempotency-Key',
      'Content-Type',
      'X-Request-Id',
    ]) {
      expect(isCredentialName(name), name).toBe(false);
    }
  });

  it('keeps the scheme of an Authorization value and nothing else, however short the credential', () => {
    expect(maskAuthorization('Bearer k')).toBe('Bearer ***');
    expect(maskAuthorization('Basic dXNlcjpwYXNz')).toBe('Basic ***');
    expect(maskAuthorization('bare-key')).toBe('***');
  });

  it("keeps a cookie's name and attributes, and masks its value", () => {
    expect(maskSetCookie('session=abc; HttpOnly; Path=/')).toBe('session=***; HttpOnly; Path=/');
    expect(maskSetCookie('id=x')).toBe('id=***');
    expect(maskSetCookie('garbage')).toBe('***');
    expect(maskHeader('Set-Cookie', 'sid=1; Secure')).toBe('sid=***; Secure');
    expect(maskHeader('Cookie', 'sid=abc; theme=dark')).toBe('sid=***; theme=***');
    expect(maskHeader('cookie', 'bare')).toBe('***');
    expect(maskHeader('x-api-key', 'k')).toBe('***');
    expect(maskHeader('content-type', 'text/plain')).toBe('text/plain');
  });

  it('masks the password of a URL, keeping the user and host', () => {
    expect(maskUrlCredentials('proxy http://u:p4ss@127.0.0.1:3128/ refused, http://host/a@b')).toBe(
      'proxy http://u:***@127.0.0.1:3128/ refused, http://host/a@b',
    );
  });
});
