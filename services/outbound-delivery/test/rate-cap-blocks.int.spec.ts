import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestInfra, type TestInfra } from '@inventory/local-infra';
import { connectRedis, type Redis } from '@inventory/platform';
import { RateCap } from '../src/delivery/rate-cap.js';

describe('cap slots taken in blocks (ADR 0406)', () => {
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

  it('never grants more than the cap between replicas taking blocks at once', async () => {
    // Two replicas, each with its own connection, asking for blocks of the same tenant-minute.
    const replicas = [new RateCap(first, 25), new RateCap(second, 25)];
    const now = Date.UTC(2030, 0, 1, 12, 0, 10);
    const granted = await Promise.all(
      Array.from({ length: 8 }, (_, n) => replicas[n % 2]!.takeMany('tenant-blocks', 7, now)),
    );
    expect(granted.reduce((sum, slots) => sum + slots, 0)).toBe(25);
    expect(granted.every((slots) => slots >= 0 && slots <= 7)).toBe(true);
    // The minute is full for single takes too; the next minute starts over.
    expect(await replicas[0]!.take('tenant-blocks', now)).toBe(false);
    expect(await replicas[1]!.takeMany('tenant-blocks', 3, now + 60_000)).toBe(3);
    // Another tenant has its own allowance.
    expect(await replicas[0]!.takeMany('tenant-other', 30, now)).toBe(25);
  });
});
