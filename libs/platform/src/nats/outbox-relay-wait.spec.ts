import { describe, expect, it } from 'vitest';
import { nextRelayWait } from './outbox.js';

describe('the outbox relay between looks', () => {
  const busy = 1_000;
  const idle = 10_000;

  it('doubles its wait after each look that found nothing, up to the idle interval', () => {
    const waits = [busy];
    for (let look = 0; look < 6; look++)
      waits.push(nextRelayWait(waits.at(-1)!, false, busy, idle));
    expect(waits).toEqual([1_000, 2_000, 4_000, 8_000, 10_000, 10_000, 10_000]);
  });

  it('comes back to the busy interval after a look that found work, from any wait', () => {
    expect(nextRelayWait(10_000, true, busy, idle)).toBe(busy);
    expect(nextRelayWait(4_000, true, busy, idle)).toBe(busy);
    expect(nextRelayWait(busy, true, busy, idle)).toBe(busy);
  });
});
