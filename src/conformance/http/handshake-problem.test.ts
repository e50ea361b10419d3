import { describe, expect, it } from 'vitest';
import { handshakeFails, handshakeStop } from './handshake-problem.js';

describe('handshakeStop', () => {
  it('a plain-HTTP answer names the http:// URL on the same port, 443 when the https:// URL gave none', () => {
    expect(handshakeStop('https://api.example.test/v1', 'ERR_SSL_WRONG_VERSION_NUMBER')?.message).toContain(
      'give --target http://api.example.test:443/v1 (ERR_SSL_WRONG_VERSION_NUMBER)',
    );
    expect(handshakeStop('https://127.0.0.1:8443', 'ERR_SSL_WRONG_VERSION_NUMBER')?.message).toContain(
      'give --target http://127.0.0.1:8443 (',
    );
  });

  it('a certificate problem is target_untrusted, a plain-HTTP answer target_not_tls, anything else no stop', () => {
    expect(handshakeStop('https://h/v1', 'DEPTH_ZERO_SELF_SIGNED_CERT')?.code).toBe('target_untrusted');
    expect(handshakeStop('https://h/v1', 'ERR_SSL_WRONG_VERSION_NUMBER')?.code).toBe('target_not_tls');
    expect(handshakeStop('https://h/v1', 'ECONNREFUSED')).toBeUndefined();
    expect(handshakeFails('ECONNREFUSED')).toBe(false);
    expect(handshakeFails(undefined)).toBe(false);
    expect(handshakeFails('ERR_SSL_WRONG_VERSION_NUMBER')).toBe(true);
  });
});
