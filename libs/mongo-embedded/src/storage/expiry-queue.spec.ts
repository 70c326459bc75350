import { describe, expect, it } from 'vitest';
import { ExpiryQueue } from './expiry-queue.js';

describe('ExpiryQueue', () => {
  it('hands out keys earliest first, only up to the cutoff, each once', () => {
    const queue = new ExpiryQueue();
    // A fixed shuffle of 0..999 (multiplication by a unit modulo 1000).
    const times = Array.from({ length: 1000 }, (_, i) => (i * 617) % 1000);
    for (const t of times) queue.push(t, `k${t}`);
    queue.push(500, 'k500-again');

    const first = queue.takeUntil(499);
    expect(first).toEqual(Array.from({ length: 500 }, (_, i) => `k${i}`));
    expect(queue.takeUntil(499)).toEqual([]);
    const rest = queue.takeUntil(Number.MAX_SAFE_INTEGER);
    expect(rest).toHaveLength(501);
    expect(rest.slice(0, 2).sort()).toEqual(['k500', 'k500-again']);
    expect(rest.at(-1)).toBe('k999');
    expect(queue.size).toBe(0);
  });
});
