import { describe, expect, it } from 'vitest';
import { createAuthenticator } from './authenticate.js';

describe('createAuthenticator', () => {
  it('keeps its verdicts right through more distinct keys than it remembers', () => {
    const authenticate = createAuthenticator(['key-one', 'key-two']);
    for (let round = 0; round < 3; round++) {
      for (let i = 0; i < 1000; i++) expect(authenticate(`Bearer wrong-${i}`)?.code).toBe('invalid_api_key');
      expect(authenticate('Bearer key-one')).toBeUndefined();
      expect(authenticate('bearer key-two')).toBeUndefined();
      expect(authenticate('Bearer key-on')?.code).toBe('invalid_api_key');
      expect(authenticate('Bearer key-one ')).toBeUndefined();
    }
  });
});
