import { describe, expect, it } from 'vitest';
import { loadContract } from '../contract/load-contract.js';
import { withRequiredHeaders } from './required-headers.js';

describe('withRequiredHeaders', () => {
  it('tags a whole answer by its text, and an answer streamed in chunks with a weak tag of its own', async () => {
    const contract = await loadContract('test/contracts/server-fields/openapi.yaml');
    const operation = contract.operations.find((o) => o.operationId === 'getProject');
    if (!operation) throw new Error('getProject is not in the contract');
    const whole = (body: string) => withRequiredHeaders(operation, { status: 200, body }).headers?.etag;
    expect(whole('{"id":"a"}')).toMatch(/^"[^"]+"$/);
    expect(whole('{"id":"a"}')).toBe(whole('{"id":"a"}'));
    expect(whole('{"id":"b"}')).not.toBe(whole('{"id":"a"}'));
    const streamed = () => withRequiredHeaders(operation, { status: 200, body: '', chunks: ['[', ']'] }).headers?.etag;
    expect(streamed()).toMatch(/^W\/"[^"]+"$/);
    expect(streamed()).not.toBe(streamed());
    expect(streamed()).not.toBe(whole(''));
  });
});
