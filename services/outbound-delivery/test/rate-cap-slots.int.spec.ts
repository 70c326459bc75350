import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestInfra, type TestInfra } from '@inventory/local-infra';
import { connectRedis, type Redis } from '@inventory/platform';
import { RateCap } from '../src/delivery/rate-cap.js';

const ids = (prefix: string, count: number) =>
  Array.from({ length: count }, (_, n) => `${prefix}-${n}`);
const count = (admitted: boolean[]) => admitted.filter(Boolean).length;

describe('cap slots, one per delivery, taken for a batch at once (ADRs 0406, 0420)', () => {
  let infra: TestInfra;
  let first: Redis;
  let second: Redis;
  beforeAll(async () => {
    infra = await startTestInfra({ mongo: false });
    first = await connectRedis(infra.redisUrl);
    second = await connectRedis(infra.redisUrl);
  });
  afterAll(async () => {
    await first?.quit();
    await second?.quit();
    await infra?.stop();
  });

  it('never grants more than the cap between replicas taking batches at once', async () => {
    // Two replicas, each with its own connection, asking for slots of the same tenant-minute.
    const replicas = [new RateCap(first, 25), new RateCap(second, 25)];
    const now = Date.UTC(2030, 0, 1, 12, 0, 10);
    const granted = await Promise.all(
      Array.from({ length: 8 }, (_, n) =>
        replicas[n % 2]!.admit('tenant-blocks', ids(`batch${n}`, 7), now),
      ),
    );
    expect(granted.reduce((sum, admitted) => sum + count(admitted), 0)).toBe(25);
    // Within a batch the slots go in order: the admitted ones lead.
    for (const admitted of granted)
      expect(admitted).toEqual([...admitted].sort((a, b) => Number(b) - Number(a)));
    // The minute is full for a new delivery; the next minute starts over.
    expect(await replicas[0]!.admit('tenant-blocks', ['late'], now)).toEqual([false]);
    expect(await replicas[1]!.admit('tenant-blocks', ids('next', 3), now + 60_000)).toEqual([
      true,
      true,
      true,
    ]);
    // Another tenant has its own allowance.
    expect(count(await replicas[0]!.admit('tenant-other', ids('other', 30), now))).toBe(25);
  });

  it('keeps a delivery its slot when it is asked for again, so retries and late commands take none', async () => {
    const cap = new RateCap(first, 5);
    const now = Date.UTC(2030, 0, 1, 12, 5, 0);
    expect(await cap.admit('tenant-retry', ['a', 'b', 'c'], now)).toEqual([true, true, true]);
    // The same batch again (its events redelivered after a failure), on another replica, twice.
    const again = new RateCap(second, 5);
    expect(await again.admit('tenant-retry', ['a', 'b', 'c'], now)).toEqual([true, true, true]);
    expect(await cap.admit('tenant-retry', ['c', 'b', 'a'], now)).toEqual([true, true, true]);
    // Two slots are left for new deliveries, not none.
    expect(await cap.admit('tenant-retry', ['d', 'e', 'f'], now)).toEqual([true, true, false]);
    // A full minute still admits a delivery that holds a slot in it.
    expect(await cap.admit('tenant-retry', ['f', 'a'], now)).toEqual([false, true]);
  });
});
