import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { createJudgingQueue } from './judging-queue.js';

describe('createJudgingQueue', () => {
  it('does the work in the order it was handed in, once the batch holds enough answers', () => {
    const queue = createJudgingQueue({ answers: 3, chars: 1000, waitMs: 60_000 });
    const done: string[] = [];
    queue.add(() => done.push('a'), 1, 10);
    queue.add(() => done.push('b'), 1, 10);
    expect(done).toEqual([]);
    queue.add(() => done.push('c'), 1, 10);
    expect(done).toEqual(['a', 'b', 'c']);
    queue.add(() => done.push('d'), 1, 10);
    queue.close();
    expect(done).toEqual(['a', 'b', 'c', 'd']);
  });

  it('judges at once what holds too many characters, with everything handed in before it', () => {
    const queue = createJudgingQueue({ answers: 100, chars: 1000, waitMs: 60_000 });
    const done: string[] = [];
    queue.add(() => done.push('small'), 1, 10);
    queue.add(() => done.push('large'), 1, 1000);
    expect(done).toEqual(['small', 'large']);
    queue.close();
  });

  it('does work left waiting after waitMs, with no more handed in', async () => {
    const queue = createJudgingQueue({ answers: 100, chars: 1000, waitMs: 5 });
    const done: string[] = [];
    queue.add(() => done.push('alone'), 1, 10);
    expect(done).toEqual([]);
    await sleep(50);
    expect(done).toEqual(['alone']);
    queue.close();
  });

  it('does the work after one that throws, and close throws what it threw', () => {
    const queue = createJudgingQueue({ answers: 100, chars: 1000, waitMs: 60_000 });
    const done: string[] = [];
    queue.add(
      () => {
        throw new Error('a bug');
      },
      1,
      10,
    );
    queue.add(() => done.push('after'), 1, 10);
    expect(() => queue.close()).toThrow('a bug');
    expect(done).toEqual(['after']);
  });
});
