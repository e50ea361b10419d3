import { describe, expect, it } from 'vitest';
import { allowHosts, isAllowedHostEntry } from './allowed-hosts.js';

describe('allowHosts', () => {
  it('allows loopback names and the address the mock binds, and nothing else by default', () => {
    const allows = allowHosts(undefined, '192.168.1.5');
    for (const name of ['localhost', 'a.localhost', '127.0.0.1', '[::1]', '192.168.1.5']) expect(allows(name), name).toBe(true);
    for (const name of ['192.168.1.6', 'evil.example', '']) expect(allows(name), name).toBe(false);
    expect(allowHosts(undefined, '::')('[::]')).toBe(true);
    expect(allowHosts(undefined, 'My-Box.lan')('my-box.lan')).toBe(true);
  });

  it('allows the names given, a .name with its subdomains, and any with all', () => {
    const allows = allowHosts(['Example.test', '.dev.test', '::2'], '127.0.0.1');
    for (const name of ['example.test', 'dev.test', 'a.b.dev.test', '[::2]']) expect(allows(name), name).toBe(true);
    for (const name of ['a.example.test', 'xdev.test']) expect(allows(name), name).toBe(false);
    expect(allowHosts('all', '127.0.0.1')('anything')).toBe(true);
  });

  it('takes names without ports as entries', () => {
    for (const entry of ['example.test', '.example.test', '192.168.1.5', '[::2]', '::2'])
      expect(isAllowedHostEntry(entry), entry).toBe(true);
    for (const entry of ['example.test:80', 'http://example.test', '', 'a b', '..x', 'a/b'])
      expect(isAllowedHostEntry(entry), entry).toBe(false);
  });
});
