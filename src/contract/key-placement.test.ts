import { describe, expect, it } from 'vitest';
import { readSecurity } from './key-placement.js';

const header = { type: 'apiKey', key: 'headerKey', in: 'header', name: 'X-API-Key' };
const oauth = { type: 'oauth2', key: 'oauth' };

describe('readSecurity', () => {
  it('reads where the key goes from the first alternative one key can satisfy', () => {
    expect(readSecurity([[oauth], [header]], true)).toEqual({
      auth: 'key',
      key: { scheme: 'apiKey', schemeName: 'headerKey', in: 'header', name: 'X-API-Key' },
    });
    expect(readSecurity([[{ type: 'http', key: 'basicAuth', scheme: 'Basic' }]], true).key).toEqual({
      scheme: 'basic',
      schemeName: 'basicAuth',
    });
    // Two schemes at once need two credentials: the key goes in the first, the other is the client's (-H), named.
    expect(readSecurity([[header, { ...header, name: 'X-Tenant-Id' }]], true)).toEqual({
      auth: 'key',
      key: { scheme: 'apiKey', schemeName: 'headerKey', in: 'header', name: 'X-API-Key', alongside: ['the X-Tenant-Id header'] },
    });
    // An API key OR a bearer token: the first is the run's, the other is where a key is no wrong key.
    expect(readSecurity([[header], [{ type: 'http', key: 'bearer', scheme: 'bearer' }]], true)).toEqual({
      auth: 'key',
      key: { scheme: 'apiKey', schemeName: 'headerKey', in: 'header', name: 'X-API-Key' },
      otherKeys: [{ scheme: 'bearer', schemeName: 'bearer' }],
    });
    // An OAuth 2.0 or OpenID Connect access token travels as a Bearer token (RFC 6750 §2.1), where no key of its
    // own is an alternative.
    expect(readSecurity([[oauth]], true)).toEqual({
      auth: 'key',
      key: { scheme: 'bearer', schemeName: 'oauth', tokenOf: 'oauth2' },
    });
    expect(readSecurity([[{ type: 'openIdConnect', key: 'oidc' }]], true).key).toEqual({
      scheme: 'bearer',
      schemeName: 'oidc',
      tokenOf: 'openIdConnect',
    });
    expect(readSecurity([[{ type: 'mutualTLS', key: 'mtls' }]], true).auth).toBe('other');
  });

  it('needs nothing for security: [] or an empty alternative; says nothing where the contract says nothing', () => {
    expect(readSecurity([], true)).toEqual({ auth: 'none', key: undefined });
    expect(readSecurity([[header], []], true).auth).toBe('none');
    expect(readSecurity([], false).auth).toBe('other');
  });
});
