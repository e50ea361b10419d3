import { describe, expect, it } from 'vitest';
import { freshIds, isTimestamp, timestampLike } from './fresh-values.js';

describe('freshIds', () => {
  it("keeps the example's prefix and character classes, and makes each id anew", () => {
    const [make] = freshIds({ type: 'string' }, 'msg_01HZY3K6T9');
    const [a, b] = [make?.(), make?.()];
    expect(a).toMatch(/^msg_[0-9A-Z]{10}$/);
    expect(a).not.toBe(b);
    expect(freshIds({ type: 'string' }, 'ord-3fa2c91b')[0]?.()).toMatch(/^ord-[0-9a-f]{12}$/);
  });

  it('lengthens a tail too short to stay unique, and keeps its length in the second way', () => {
    const [longer, same] = freshIds({ type: 'string' }, 'T-0042');
    expect(longer?.()).toMatch(/^T-\d{15}$/);
    expect(same?.()).toMatch(/^T-\d{4}$/);
  });

  it('makes a uuid for format uuid or no example, and a whole number within bounds for a numeric id', () => {
    const uuid = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
    expect(freshIds({ type: 'string', format: 'uuid' }, 'x_1')[0]?.()).toMatch(uuid);
    expect(freshIds({ type: 'string' }, undefined)[0]?.()).toMatch(uuid);
    const number = freshIds({ type: 'integer', minimum: 5, maximum: 6 }, 42)[0]?.() as number;
    expect([5, 6]).toContain(number);
  });
});

describe('time stamps', () => {
  it('are format date-time, or a string without format whose example is an RFC 3339 date-time', () => {
    expect(isTimestamp({ type: 'string', format: 'date-time' }, undefined)).toBe(true);
    expect(isTimestamp({ type: 'string' }, '2026-11-22T12:00:00Z')).toBe(true);
    expect(isTimestamp({ type: 'string' }, 'Hello')).toBe(false);
    expect(isTimestamp({ type: 'string', format: 'date' }, '2026-11-22T12:00:00Z')).toBe(false);
  });

  it("are now in the example's form: whole seconds when it has no fraction", () => {
    expect(timestampLike('2026-11-22T12:00:00Z')()).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
    expect(timestampLike('2026-11-22T12:00:00.000Z')()).toMatch(/\.\d{3}Z$/);
  });
});
