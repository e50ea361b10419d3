import { describe, expect, it } from 'vitest';
import { createRunBounds, formatDuration, TIMEOUTS_IN_A_ROW } from './create-run-bounds.js';

const TIMEOUT = { error: { kind: 'timeout', message: 'no complete answer within 300 ms' } } as const;
const ANSWER = { error: undefined };

describe('createRunBounds', () => {
  it(`gives an operation up after ${TIMEOUTS_IN_A_ROW} timeouts in a row on it, and no other`, () => {
    const bounds = createRunBounds(undefined, 300);
    for (let i = 0; i < TIMEOUTS_IN_A_ROW - 1; i++) bounds.note('getPet', TIMEOUT);
    expect(bounds.refuse(['getPet'])).toBeUndefined();
    bounds.note('getPet', TIMEOUT);
    expect(bounds.refuse(['listPets'])).toBeUndefined();
    expect(bounds.refuse(['listPets', 'getPet'])).toBe('the target timed out on getPet 3 times in a row (--timeout 300 ms)');
    expect(bounds.cutShort()).toEqual({
      deadline: false,
      reasons: [{ reason: 'the target timed out on getPet 3 times in a row (--timeout 300 ms)', by: 'timeouts', cases: 1 }],
    });
  });

  it('starts the count again after an answer, and counts only timeouts', () => {
    const bounds = createRunBounds(undefined, 300);
    bounds.note('getPet', TIMEOUT);
    bounds.note('getPet', TIMEOUT);
    bounds.note('getPet', ANSWER);
    bounds.note('getPet', { error: { kind: 'connection', message: 'reset' } });
    bounds.note('getPet', TIMEOUT);
    bounds.note('getPet', TIMEOUT);
    expect(bounds.refuse(['getPet'])).toBeUndefined();
    expect(bounds.cutShort()).toBeUndefined();
  });

  it('refuses everything once the deadline is past, and counts each case it stopped', () => {
    let now = 0;
    const bounds = createRunBounds({ at: 1000, name: '1s' }, 300, () => now);
    expect(bounds.refuse(['listPets'])).toBeUndefined();
    now = 1000;
    expect(bounds.refuse(['listPets'])).toBe('--deadline 1s reached');
    expect(bounds.refuse([])).toBe('--deadline 1s reached');
    bounds.deadlineMet('--deadline 1s reached: a 429 Too Many Requests asked for a wait that ends past it');
    expect(bounds.cutShort()).toEqual({
      deadline: true,
      reasons: [
        { reason: '--deadline 1s reached', by: 'deadline', cases: 2 },
        { reason: '--deadline 1s reached: a 429 Too Many Requests asked for a wait that ends past it', by: 'deadline', cases: 1 },
      ],
    });
  });
});

describe('formatDuration', () => {
  it.each([
    [300_000, '5m'],
    [3_600_000, '1h'],
    [30_000, '30s'],
    [1500, '1500ms'],
    [90_000, '90s'],
  ])('writes %i ms as %s', (ms, text) => expect(formatDuration(ms)).toBe(text));
});
