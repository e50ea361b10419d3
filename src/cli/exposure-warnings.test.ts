import { describe, expect, it } from 'vitest';
import { exposureWarnings } from './exposure-warnings.js';

describe('exposureWarnings', () => {
  it.each(['127.0.0.1', 'localhost', '::1', '127.0.0.2'])('says nothing of --host %s', (host) => {
    expect(exposureWarnings({ host, adminFromNetwork: false, anyOrigin: false })).toEqual([]);
  });

  it.each(['0.0.0.0', '::', '192.168.1.5', 'my-laptop.lan'])('warns that --host %s opens the API to the network', (host) => {
    const [warning, ...more] = exposureWarnings({ host, adminFromNetwork: false, anyOrigin: false });
    expect(warning).toContain(`--host ${host} is not a loopback address`);
    expect(warning).toContain('admin endpoints still answer only this machine');
    expect(more).toEqual([]);
  });

  it('says the admin endpoints are open too with --admin-from-network, and warns of any origin', () => {
    const warnings = exposureWarnings({ host: '0.0.0.0', adminFromNetwork: true, anyOrigin: true });
    expect(warnings[0]).toContain('and the admin endpoints (--admin-from-network)');
    expect(warnings[1]).toContain("--cors-origin '*'");
  });
});
