import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { settledDeliveries, startHarness, subscribe, type Harness } from './harness.js';
import { startReceiver, type Receiver } from './receiver.js';

/**
 * Bursts through fan-out, whose first attempts are made from the consumed batches (ADR 0408;
 * before it, deliveries stored leased to the local worker and queued in memory, ADR 0406): a
 * burst larger than the attempt slots, and leases (the events' ack wait) shorter than an attempt
 * plus its margin. Either way each is sent once (this receiver always answers 200, so no repeat
 * is expected).
 */
async function burst(h: Harness, receiver: Receiver, tenant: string, path: string, count: number) {
  const { id } = await subscribe(h, tenant, `${receiver.url}${path}`);
  for (let n = 0; n < count; n++) await h.publish(tenant, 'sales_order.created', { n });
  const settled = await settledDeliveries(h, tenant, id, count);
  const sent = receiver.requests.filter((request) => request.path === path);
  return { settled, sent };
}

describe('deliveries stored leased to the local worker', () => {
  let receiver: Receiver;
  beforeAll(async () => {
    receiver = await startReceiver();
  });
  afterAll(async () => receiver?.stop());

  describe('a burst larger than the in-memory queue', () => {
    let h: Harness;
    beforeAll(async () => {
      h = await startHarness({ DELIVERY_CONCURRENCY: '4' });
    });
    afterAll(async () => h?.stop());

    it('sends each delivery once, whether it went through the queue or the schedule', async () => {
      const { settled, sent } = await burst(h, receiver, 'tenant-burst', '/burst', 60);
      expect(settled.every((delivery) => delivery.status === 'succeeded')).toBe(true);
      expect(settled.every((delivery) => delivery.attempts.length === 1)).toBe(true);
      const ids = sent.map((request) => request.headers['x-svc-delivery-id']);
      expect(ids).toHaveLength(60);
      expect(new Set(ids).size).toBe(60);
    });
  });

  describe('leases too short to cover an attempt from the queue', () => {
    let h: Harness;
    beforeAll(async () => {
      // 1 s leases, 0.5 s attempts: a queued delivery never has the 1.5 s an attempt needs.
      h = await startHarness({ DELIVERY_LEASE_MS: '1000', WEBHOOK_TIMEOUT_MS: '500' });
    });
    afterAll(async () => h?.stop());

    it('leaves them to the schedule, which sends each once the lease has expired', async () => {
      const { settled, sent } = await burst(h, receiver, 'tenant-short-lease', '/short', 5);
      expect(settled.every((delivery) => delivery.status === 'succeeded')).toBe(true);
      expect(new Set(sent.map((request) => request.headers['x-svc-delivery-id'])).size).toBe(5);
      expect(sent).toHaveLength(5);
    });
  });
});
