import { describe, expect, it } from 'vitest';
import type { Operation } from '../../contract/operation.js';
import { acceptedStatus } from './unread-create-answers.js';

const documenting = (...codes: string[]) =>
  ({ responses: codes.map((code) => ({ code, description: undefined, headers: [], contents: [] })) }) as unknown as Operation;

describe('acceptedStatus', () => {
  it('answers 202 where the contract allows it: listed, or a 2XX range with no listed success', () => {
    expect(acceptedStatus(documenting('2XX', '401'))).toBe(202);
    expect(acceptedStatus(documenting('200', '202'))).toBe(202);
  });

  it('answers a listed success as it is otherwise, the lowest of several, before any range', () => {
    expect(acceptedStatus(documenting('201', '400'))).toBe(201);
    expect(acceptedStatus(documenting('201', '200'))).toBe(200);
    expect(acceptedStatus(documenting('201', '2XX'))).toBe(201);
  });

  it('has no answer when no success is documented', () => {
    expect(acceptedStatus(documenting('default'))).toBeUndefined();
  });
});
