import { describe, expect, it } from 'vitest';
import { callTimes } from './call-times.js';

describe('callTimes', () => {
  it('records when each call is made, and leaves the call as it was (this, arguments, answer)', async () => {
    const counter = {
      step: 2,
      async add(value: number) {
        return value + this.step;
      },
    };
    const before = Date.now();
    const times = callTimes(counter, 'add');
    expect(times).toEqual([]);
    expect(await counter.add(1)).toBe(3);
    expect(await counter.add(10)).toBe(12);
    expect(times).toHaveLength(2);
    expect(times[0]).toBeGreaterThanOrEqual(before);
    expect(times[1]).toBeGreaterThanOrEqual(times[0]!);
  });
});
