import { describe, expect, it } from 'vitest';
import { loadContract } from '../../contract/load-contract.js';
import { buildRequest } from './build-request.js';
import type { Step } from './scenario.js';

describe('buildRequest', async () => {
  const contract = await loadContract();
  const getPet = contract.byId.get('getPet');
  const step = (path: Record<string, unknown>, query: Record<string, unknown> = {}) =>
    ({ index: 1, operation: getPet, path, query, headers: {}, auth: 'default', expect: {}, templated: true }) as unknown as Step;
  const scope = { create: { status: 201, body: { id: 9223372036854775807n, name: 'Rex' } } };

  it('fills a path parameter with a captured int64 id, every digit kept', () => {
    const request = buildRequest(step({ petId: '{{create.body.id}}' }), scope, 'http://127.0.0.1:1/v1', 'k');
    expect(request.url).toBe('http://127.0.0.1:1/v1/pets/9223372036854775807');
    expect(request.headers.authorization).toBe('Bearer k');
  });

  it('refuses to send a captured object where text belongs, naming the field', () => {
    expect(() => buildRequest(step({ petId: '{{create.body}}' }), scope, 'http://127.0.0.1:1/v1', 'k')).toThrow(
      'params.petId: the captured value is an object, not text',
    );
    expect(() => buildRequest(step({ petId: 1 }, { tag: '{{create.body}}' }), scope, 'http://127.0.0.1:1/v1', 'k')).toThrow(
      'query.tag: the captured value is an object, not text',
    );
  });

  it('refuses a URL that would carry undefined or null, naming the parameter', () => {
    expect(() => buildRequest(step({}), scope, 'http://127.0.0.1:1/v1', 'k')).toThrow(
      "params.petId: no value (undefined), so the URL would carry 'undefined'",
    );
    expect(() => buildRequest(step({ petId: null }), scope, 'http://127.0.0.1:1/v1', 'k')).toThrow(
      'params.petId: no value (null)',
    );
    expect(() => buildRequest(step({ petId: '{{create.body.none}}' }), scope, 'http://127.0.0.1:1/v1', 'k')).toThrow(
      "has no 'none'",
    );
  });
});
