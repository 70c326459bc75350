import { describe, expect, it, vi } from 'vitest';
import { KeyPacer } from './pacer.js';

describe('KeyPacer', () => {
  it('lets at most 3 calls per key into any window, counted from when each finished, without blocking other keys', async () => {
    // The clock is injected (fake timers): the starts are exact, whatever the machine's load.
    vi.useFakeTimers({ toFake: ['Date', 'setTimeout', 'clearTimeout'] });
    try {
      const pacer = new KeyPacer(3, 200);
      const started: Array<{ key: string; i: number; at: number }> = [];
      const t0 = Date.now();
      const calls = [0, 1, 2, 3, 4, 5, 6].map((i) =>
        pacer.run('a', async () => void started.push({ key: 'a', i, at: Date.now() - t0 })),
      );
      const other = pacer.run(
        'b',
        async () => void started.push({ key: 'b', i: 0, at: Date.now() - t0 }),
      );
      await vi.runAllTimersAsync();
      await Promise.all([...calls, other]);
      const a = started.filter((s) => s.key === 'a');
      expect(a.map((s) => s.i)).toEqual([0, 1, 2, 3, 4, 5, 6]);
      expect(a.map((s) => s.at)).toEqual([0, 0, 0, 200, 200, 200, 400]);
      expect(started.find((s) => s.key === 'b')!.at).toBe(0);
    } finally {
      vi.useRealTimers();
    }
  });

  it('keeps the queue moving after a failed task', async () => {
    const pacer = new KeyPacer(3);
    await expect(pacer.run('k', async () => Promise.reject(new Error('boom')))).rejects.toThrow(
      'boom',
    );
    await expect(pacer.run('k', async () => 42)).resolves.toBe(42);
  });
});
