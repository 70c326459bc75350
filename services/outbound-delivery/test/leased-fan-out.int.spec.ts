import { describe, expect, it } from 'vitest';
import { useReceiverSuite, type ReceiverSuite } from './suite.js';

/**
 * Bursts through fan-out, whose first attempts are made from the consumed batches (ADR 0408;
 * before it, deliveries stored leased to the local worker and queued in memory, ADR 0406): a
 * burst larger than the attempt slots, and leases (the events' ack wait) shorter than an attempt
 * plus its margin. Either way each is sent once (this receiver always answers 200, so no repeat
 * is expected).
 */
async function burst(suite: ReceiverSuite, tenant: string, path: string, count: number) {
  const { id } = await suite.subscribe(tenant, path);
  for (let n = 0; n < count; n++) await suite.h.publish(tenant, 'sales_order.created', { n });
  const settled = await suite.settled(tenant, id, count);
  const sent = suite.requestsTo(path);
  return { settled, sent };
}

describe('deliveries stored leased to the local worker', () => {
  describe('a burst larger than the in-memory queue', () => {
    const suite = useReceiverSuite({ env: { DELIVERY_CONCURRENCY: '4' } });

    it('sends each delivery once, whether it went through the queue or the schedule', async () => {
      const { settled, sent } = await burst(suite, 'tenant-burst', '/burst', 60);
      expect(settled.every((delivery) => delivery.status === 'succeeded')).toBe(true);
      expect(settled.every((delivery) => delivery.attempts.length === 1)).toBe(true);
      const ids = sent.map((request) => request.headers['x-svc-delivery-id']);
      expect(ids).toHaveLength(60);
      expect(new Set(ids).size).toBe(60);
    });
  });

  describe('leases too short to cover an attempt from the queue', () => {
    // 1 s leases, 0.5 s attempts: a queued delivery never has the 1.5 s an attempt needs.
    const suite = useReceiverSuite({
      env: { DELIVERY_LEASE_MS: '1000', WEBHOOK_TIMEOUT_MS: '500' },
    });

    it('leaves them to the schedule, which sends each once the lease has expired', async () => {
      const { settled, sent } = await burst(suite, 'tenant-short-lease', '/short', 5);
      expect(settled.every((delivery) => delivery.status === 'succeeded')).toBe(true);
      expect(new Set(sent.map((request) => request.headers['x-svc-delivery-id'])).size).toBe(5);
      expect(sent).toHaveLength(5);
    });
  });
});
