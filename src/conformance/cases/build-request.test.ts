import { describe, expect, it } from 'vitest';
import { loadContract } from '../../contract/load-contract.js';
import { buildRequest } from './build-request.js';
import type { Operation } from '../../contract/operation.js';
import type { AuthChoice, Step } from './scenario.js';

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

describe('buildRequest puts the key where the operation says', async () => {
  const contract = await loadContract();
  const getPet = contract.byId.get('getPet') as Operation;
  const as = (auth: Pick<Operation, 'auth' | 'key'>, choice: AuthChoice = 'default') =>
    buildRequest(
      {
        index: 1,
        operation: { ...getPet, ...auth },
        path: { petId: 1 },
        query: {},
        headers: {},
        auth: choice,
        expect: {},
      } as unknown as Step,
      {},
      'http://127.0.0.1:1/v1',
      'user:pw',
    );
  const apiKey = (where: 'header' | 'query' | 'cookie', name: string) =>
    ({ auth: 'key', key: { scheme: 'apiKey', schemeName: 'k', in: where, name } }) as const;

  it('as Basic, in a header, the query or a cookie; nowhere for an operation that needs none', () => {
    expect(as({ auth: 'key', key: { scheme: 'basic', schemeName: 'b' } }).headers.authorization).toBe(
      `Basic ${Buffer.from('user:pw').toString('base64')}`,
    );
    expect(as(apiKey('header', 'X-API-Key')).headers['x-api-key']).toBe('user:pw');
    expect(as(apiKey('query', 'api_key')).url).toBe('http://127.0.0.1:1/v1/pets/1?api_key=user%3Apw');
    expect(as(apiKey('cookie', 'sid')).headers.cookie).toBe('sid=user:pw');
    const open = as({ auth: 'none', key: undefined });
    expect(open.headers.authorization).toBeUndefined();
    expect(open.credential).toBeUndefined();
    // An altered key goes where the key would, and is recorded by its description.
    const altered = as(apiKey('header', 'X-API-Key'), { alter: (k) => `${k}x`, shown: '<key>x' });
    expect(altered.headers['x-api-key']).toBe('user:pwx');
    expect(altered.credential).toMatchObject({ shown: '<key>x', runKey: false });
    // A contract that declares no security: Authorization: Bearer, as always.
    expect(as({ auth: 'other', key: undefined }).headers.authorization).toBe('Bearer user:pw');
  });
});
