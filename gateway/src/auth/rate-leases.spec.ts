import { describe, expect, it } from 'vitest';
import { RateLeases } from './rate-leases.js';

function leasesAt(clock: { now: number }, options: { maxSlots?: number; maxKeys?: number } = {}) {
  return new RateLeases({
    lifetimeMs: 100,
    maxSlots: options.maxSlots ?? 64,
    maxKeys: options.maxKeys ?? 10_000,
    now: () => clock.now,
  });
}

describe('RateLeases', () => {
  it('asks for one slot for a key seen first, and always for a budget under 200 per period', () => {
    const clock = { now: 0 };
    const leases = leasesAt(clock);
    expect(leases.slotsToAsk('a', 100_000)).toBe(1);
    leases.granted('b', 199, 1, 198, 60);
    expect(leases.take('b', 199)).toBeUndefined();
    expect(leases.slotsToAsk('b', 199)).toBe(1);
  });

  it('doubles a lease used up before it expired, up to the cap and to 1 % of the budget', () => {
    const clock = { now: 0 };
    const leases = leasesAt(clock, { maxSlots: 16 });
    const asked: number[] = [];
    for (let round = 0; round < 7; round++) {
      const slots = leases.slotsToAsk('k', 100_000);
      asked.push(slots);
      leases.granted('k', 100_000, slots, 50_000, 60);
      for (let i = 1; i < slots; i++) expect(leases.take('k', 100_000)).toBeDefined();
      expect(leases.take('k', 100_000)).toBeUndefined();
    }
    expect(asked).toEqual([1, 2, 4, 8, 16, 16, 16]);

    leases.granted('small', 1_000, 1, 999, 60);
    leases.granted('small', 1_000, leases.slotsToAsk('small', 1_000), 900, 60);
    const useUp = () => {
      while (leases.take('small', 1_000)) {
        /* every slot handed out */
      }
    };
    const grantedSlots: number[] = [];
    for (let i = 0; i < 4; i++) {
      useUp();
      const slots = leases.slotsToAsk('small', 1_000);
      grantedSlots.push(slots);
      leases.granted('small', 1_000, slots, 900, 60);
    }
    expect(grantedSlots).toEqual([4, 8, 10, 10]);
  });

  it('hands out no slot of an expired lease, and sizes the next one by what it used', () => {
    const clock = { now: 1_000 };
    const leases = leasesAt(clock);
    leases.granted('k', 100_000, 8, 90_000, 60);
    expect(leases.take('k', 100_000)).toEqual({ remaining: 90_006, resetAt: 60 });
    expect(leases.take('k', 100_000)).toEqual({ remaining: 90_005, resetAt: 60 });
    clock.now += 100;
    expect(leases.take('k', 100_000)).toBeUndefined();
    // The request that made the call and the two handed out: three used of eight.
    expect(leases.slotsToAsk('k', 100_000)).toBe(3);
  });

  it('shrinks to what was used when the next request comes after a used-up lease expired', () => {
    const clock = { now: 0 };
    const leases = leasesAt(clock);
    leases.granted('k', 100_000, 4, 90_000, 60);
    for (let i = 0; i < 3; i++) leases.take('k', 100_000);
    clock.now += 150;
    expect(leases.slotsToAsk('k', 100_000)).toBe(4);
    leases.granted('k', 100_000, 1, 90_000, 60);
    clock.now += 150;
    expect(leases.slotsToAsk('k', 100_000)).toBe(1);
  });

  it('counts the slots it still holds in the remaining budget, one fewer per slot handed out', () => {
    const clock = { now: 0 };
    const leases = leasesAt(clock);
    leases.granted('k', 100_000, 3, 500, 77);
    expect(leases.take('k', 100_000)).toEqual({ remaining: 501, resetAt: 77 });
    expect(leases.take('k', 100_000)).toEqual({ remaining: 500, resetAt: 77 });
    expect(leases.take('k', 100_000)).toBeUndefined();
  });

  it('never hands out a slot leased under another limit (the token’s limit was edited)', () => {
    const clock = { now: 0 };
    const leases = leasesAt(clock);
    leases.granted('k', 100_000, 8, 90_000, 60);
    expect(leases.take('k', 50_000)).toBeUndefined();
    expect(leases.take('k', 100_000)).toBeDefined();
  });

  it('keeps a live lease when a single slot asked beside it is granted, and starts over past its key bound', () => {
    const clock = { now: 0 };
    const leases = leasesAt(clock, { maxKeys: 2 });
    leases.granted('a', 100_000, 8, 90_000, 60);
    leases.granted('a', 100_000, 1, 89_999, 60);
    expect(leases.take('a', 100_000)).toEqual({ remaining: 90_006, resetAt: 60 });

    leases.granted('a', 100_000, 8, 90_000, 60);
    leases.granted('b', 100_000, 8, 90_000, 60);
    leases.granted('c', 100_000, 8, 90_000, 60);
    expect(leases.size).toBe(1);
    expect(leases.take('a', 100_000)).toBeUndefined();
    expect(leases.take('c', 100_000)).toBeDefined();
  });
});
