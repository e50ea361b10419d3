import { describe, expect, it } from 'vitest';
import { createGate } from './create-gate.js';

describe('createGate', () => {
  it('lets in as many as it has slots, the next when one leaves, and counts a second leave once', async () => {
    const enter = createGate(1);
    const order: string[] = [];
    const leaveA = await enter();
    const b = enter().then((leave) => {
      order.push('b');
      return leave;
    });
    const c = enter().then((leave) => {
      order.push('c');
      return leave;
    });
    await Promise.resolve();
    expect(order).toEqual([]);
    leaveA();
    leaveA();
    const leaveB = await b;
    await Promise.resolve();
    expect(order).toEqual(['b']);
    leaveB();
    (await c)();
    expect(order).toEqual(['b', 'c']);
  });
});
