import { describe, expect, it } from 'vitest';
import { isLoopbackName, isLoopbackOrigin, isLoopbackPeer } from './loopback.js';

describe('loopback', () => {
  it.each(['127.0.0.1', '127.1.2.3', '::1', '::ffff:127.0.0.1', '::FFFF:127.0.0.9'])(
    'takes the peer %s as this machine',
    (address) => {
      expect(isLoopbackPeer(address)).toBe(true);
    },
  );

  it.each([
    '10.0.0.8',
    '192.168.1.5',
    '::ffff:10.0.0.8',
    'fe80::1',
    '::',
    '0.0.0.0',
    '128.0.0.1',
    '::2',
    '1127.0.0.1',
    undefined,
  ])('takes the peer %s as another machine', (address) => {
    expect(isLoopbackPeer(address)).toBe(false);
  });

  it('knows loopback names and no others', () => {
    for (const name of ['localhost', 'app.localhost', '127.0.0.1', '127.8.9.10', '[::1]'])
      expect(isLoopbackName(name)).toBe(true);
    for (const name of ['localhost.example', 'evil.example', '10.0.0.8', '[::2]', 'notlocalhost', '0.0.0.0']) {
      expect(isLoopbackName(name)).toBe(false);
    }
  });

  it('knows pages served from this machine, on any port', () => {
    for (const origin of [
      'http://localhost:5173',
      'https://localhost',
      'http://app.localhost:3000',
      'http://127.0.0.1:8080',
      'http://[::1]:4000',
    ]) {
      expect(isLoopbackOrigin(origin)).toBe(true);
    }
    for (const origin of [
      'null',
      'http://evil.example',
      'http://localhost.evil.example',
      'http://evil.example/.localhost',
      'file://',
      'http://127.0.0.1@evil.example',
    ]) {
      expect(isLoopbackOrigin(origin)).toBe(false);
    }
  });
});
