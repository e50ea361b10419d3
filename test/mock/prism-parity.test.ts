import { createInstance } from '@stoplight/prism-http';
import { describe, expect, it } from 'vitest';
import { call } from '../support/http.js';
import { startMock } from '../support/start-mock.js';

// The mock validates stateful operations on its own precompiled path instead of Prism's pipeline. This shows
// that path accepts and rejects what Prism's own validator does, on the same operations, except where the mock
// is deliberately stricter (see `stricter`).
const CASES: readonly { method: 'GET' | 'POST'; path: string; body?: string; stricter?: string }[] = [
  { method: 'GET', path: '/pets' },
  { method: 'GET', path: '/pets?limit=1' },
  { method: 'GET', path: '/pets?limit=100&status=pending' },
  { method: 'GET', path: '/pets?limit=0' },
  { method: 'GET', path: '/pets?limit=101' },
  { method: 'GET', path: '/pets?limit=abc' },
  { method: 'GET', path: '/pets?status=lost' },
  { method: 'GET', path: '/pets/1' },
  { method: 'GET', path: '/pets/abc' },
  { method: 'GET', path: '/pets/1.5' },
  { method: 'POST', path: '/pets', body: '{"name":"a","categoryId":1}' },
  { method: 'POST', path: '/pets', body: '{"name":"a","categoryId":1,"status":"sold"}' },
  { method: 'POST', path: '/pets', body: '{"name":"a"}' },
  { method: 'POST', path: '/pets', body: '{"categoryId":1}' },
  { method: 'POST', path: '/pets', body: '{"name":"a","categoryId":"1"}' },
  { method: 'POST', path: '/pets', body: '{"name":"a","categoryId":1.5}' },
  { method: 'POST', path: '/pets', body: '{"name":"a","categoryId":1,"status":"lost"}' },
  { method: 'POST', path: '/pets', body: '[]' },
  { method: 'POST', path: '/messages', body: '{"message":"hi"}' },
  { method: 'POST', path: '/messages', body: '{}' },
  // Prism bounds int64 at ±(2^53−1); the contract's int64 reaches ±2^63.
  { method: 'POST', path: '/pets', body: '{"name":"a","categoryId":9007199254740993}', stricter: 'accepts int64 beyond 2^53' },
];

describe('validation parity with Prism', async () => {
  const mock = await startMock();
  const prism = createInstance(
    {
      checkSecurity: true,
      validateRequest: true,
      validateResponse: false,
      errors: false,
      upstreamProxy: undefined,
      isProxy: false,
      mock: { dynamic: false },
    },
    {
      logger: {
        info() {},
        warn() {},
        error() {},
        debug() {},
        trace() {},
        fatal() {},
        success() {},
        child() {
          return this;
        },
      } as never,
    },
  );
  const operations = mock.contract.operations.map((op) => op.prismOperation) as never[];

  async function prismAccepts(method: string, path: string, body: string | undefined): Promise<boolean> {
    const [pathname, search = ''] = path.split('?');
    const query: Record<string, string> = Object.fromEntries(new URLSearchParams(search));
    const result = await prism.request(
      {
        method: method.toLowerCase() as 'get',
        url: { path: pathname as string, query },
        headers: { authorization: 'Bearer petstore-dev-key', 'content-type': 'application/json' },
        body: body === undefined ? undefined : JSON.parse(body),
      },
      operations,
    )();
    return result._tag === 'Right' && result.right.validations.input.length === 0 && result.right.output.statusCode < 300;
  }

  it.each(CASES)('$method $path $body', async ({ method, path, body, stricter }) => {
    const ours = await call(
      mock.url,
      method,
      path,
      body === undefined ? {} : { body, headers: { 'content-type': 'application/json' } },
    );
    // A 404 for an id no pet has is not a validation verdict: the request itself was valid.
    const oursAccepts = ours.status < 300 || (ours.json as { code?: string }).code === 'pet_not_found';
    const theirs = await prismAccepts(method, path, body);
    if (stricter) expect(oursAccepts, stricter).not.toBe(theirs);
    else expect(oursAccepts).toBe(theirs);
  });
});
