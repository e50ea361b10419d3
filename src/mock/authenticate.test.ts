import { describe, expect, it } from 'vitest';
import type { KeyPlacement } from '../contract/key-placement.js';
import { createAuthenticator, type CredentialSource } from './authenticate.js';

const BEARER: KeyPlacement = { scheme: 'bearer', schemeName: 'bearerAuth' };
const request = (headers: Record<string, string>, query: CredentialSource['query'] = {}): CredentialSource => ({
  headers,
  rawHeaders: Object.entries(headers).flat(),
  query,
});
const bearer = (authorization: string) => request({ authorization });

describe('createAuthenticator', () => {
  it('keeps its verdicts right through more distinct keys than it remembers', () => {
    const authenticate = createAuthenticator(['key-one', 'key-two']);
    for (let round = 0; round < 3; round++) {
      for (let i = 0; i < 1000; i++) expect(authenticate(BEARER, bearer(`Bearer wrong-${i}`))?.code).toBe('invalid_api_key');
      expect(authenticate(BEARER, bearer('Bearer key-one'))).toBeUndefined();
      expect(authenticate(BEARER, bearer('bearer key-two'))).toBeUndefined();
      expect(authenticate(BEARER, bearer('Bearer key-on'))?.code).toBe('invalid_api_key');
      expect(authenticate(BEARER, bearer('Bearer key-one '))).toBeUndefined();
    }
  });

  it('takes the key where an apiKey scheme puts it, and only there', () => {
    const authenticate = createAuthenticator(['key-one']);
    const header: KeyPlacement = { scheme: 'apiKey', schemeName: 'k', in: 'header', name: 'X-API-Key' };
    const query: KeyPlacement = { scheme: 'apiKey', schemeName: 'k', in: 'query', name: 'api_key' };
    const cookie: KeyPlacement = { scheme: 'apiKey', schemeName: 'k', in: 'cookie', name: 'sid' };
    expect(authenticate(header, request({ 'x-api-key': 'key-one' }))).toBeUndefined();
    expect(authenticate(header, request({ authorization: 'Bearer key-one' }))?.message).toBe(
      'the X-API-Key header is missing: send X-API-Key: <API_KEY>',
    );
    expect(authenticate(header, request({ 'x-api-key': 'key-onE' }))?.code).toBe('invalid_api_key');
    expect(authenticate(header, request({ 'x-api-key': ' ' }))?.code).toBe('empty_api_key');
    expect(authenticate(query, request({}, { api_key: 'key-one' }))).toBeUndefined();
    expect(authenticate(query, request({}, { api_key: ['key-one', 'key-one'] }))?.code).toBe('repeated_api_key');
    expect(authenticate(query, request({ 'x-api-key': 'key-one' }))?.code).toBe('missing_api_key');
    expect(authenticate(cookie, request({ cookie: 'theme=dark; sid=key-one' }))).toBeUndefined();
    expect(authenticate(cookie, request({ cookie: 'sidx=key-one' }))?.code).toBe('missing_api_key');
    expect(authenticate(cookie, request({ cookie: 'sid=nope' }))?.code).toBe('invalid_api_key');
  });

  it('takes a Basic credential whose user:password is the key, and not the same value under Bearer', () => {
    const authenticate = createAuthenticator(['user:key-one']);
    const basic: KeyPlacement = { scheme: 'basic', schemeName: 'basicAuth' };
    const encoded = Buffer.from('user:key-one').toString('base64');
    expect(authenticate(basic, bearer(`Basic ${encoded}`))).toBeUndefined();
    expect(authenticate(basic, bearer('Bearer user:key-one'))?.code).toBe('unsupported_auth_scheme');
    expect(authenticate(BEARER, bearer(`Basic ${encoded}`))?.code).toBe('unsupported_auth_scheme');
    expect(authenticate(basic, bearer(`Basic ${Buffer.from('user:key-two').toString('base64')}`))?.code).toBe('invalid_api_key');
  });
});
