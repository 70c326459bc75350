import { describe, expect, it } from 'vitest';
import { as, waitFor } from './harness.js';
import { useReceiverSuite } from './suite.js';

const TENANT = 'tenant-capped';
const CAP = 5;
/** Every replica reads this minute: the burst cannot straddle two windows on a slow machine. */
const PINNED_NOW = Date.UTC(2031, 4, 6, 7, 8, 30);

async function droppedCount(metricsPort: number): Promise<number> {
  const text = await (await fetch(`http://127.0.0.1:${metricsPort}/metrics`)).text();
  const line = text
    .split('\n')
    .find(
      (l) => l.startsWith('outbound_webhook_deliveries_total{') && l.includes('outcome="dropped"'),
    );
  return line ? Number(line.split(' ').pop()) : 0;
}

describe('per-tenant cap shared by replicas', () => {
  const suite = useReceiverSuite({
    env: { WEBHOOK_RATE_PER_MINUTE: String(CAP) },
    bootstrap: { clock: () => PINNED_NOW },
  });

  it(
    'drops (not queues) what exceeds the cap across two replicas, visible in the log and the metric',
    { timeout: 60_000 },
    async () => {
      const second = await suite.h.startReplica();
      const { id } = await suite.subscribe(TENANT, '/capped');
      const other = await suite.subscribe('tenant-uncapped', '/other');
      for (let n = 0; n < 12; n++) await suite.h.publish(TENANT, 'sales_order.created', { n });
      for (let n = 0; n < 3; n++)
        await suite.h.publish('tenant-uncapped', 'sales_order.created', { n });

      const settled = await suite.settled(TENANT, id, 12);
      const byStatus = (status: string) => settled.filter((d) => d.status === status);
      expect(byStatus('succeeded')).toHaveLength(CAP);
      expect(byStatus('dropped')).toHaveLength(12 - CAP);
      expect(byStatus('dropped').every((d) => d.attempts.length === 0)).toBe(true);
      expect(suite.requestsTo('/capped')).toHaveLength(CAP);
      // Another tenant has its own allowance.
      const others = await suite.settled('tenant-uncapped', other.id, 3);
      expect(others.every((d) => d.status === 'succeeded')).toBe(true);

      const dropped =
        (await droppedCount(suite.h.service.metricsServerPort)) +
        (await droppedCount(second.metricsServerPort));
      expect(dropped).toBe(12 - CAP);
    },
  );

  it('takes a slot for each redeliver of the same delivery: a new cycle is a new delivery to the cap', async () => {
    const tenant = 'tenant-redelivering';
    const { id } = await suite.subscribe(tenant, '/again');
    await suite.h.publish(tenant, 'sales_order.created', { n: 'once' });
    const [first] = await suite.succeeded(tenant, id, 1);
    const deliveryId = first!.id;
    const cycleSettled = (attempts: number) =>
      waitFor(async () => {
        const { deliveries } = await suite.deliveriesOf(tenant, id);
        const delivery = deliveries[0];
        return delivery?.status !== 'pending' && delivery?.attempts.length === attempts
          ? delivery
          : undefined;
      }, `cycle ${attempts}`);
    // The first send took one of the minute's CAP slots; each redeliver takes another.
    for (let cycle = 2; cycle <= CAP; cycle++) {
      await as(tenant, () =>
        suite.h.client.call.redeliver({ subscription_id: id, delivery_id: deliveryId }),
      );
      expect((await cycleSettled(cycle)).status).toBe('succeeded');
    }
    await as(tenant, () =>
      suite.h.client.call.redeliver({ subscription_id: id, delivery_id: deliveryId }),
    );
    const over = await waitFor(async () => {
      const { deliveries } = await suite.deliveriesOf(tenant, id);
      return deliveries[0]?.status === 'dropped' ? deliveries[0] : undefined;
    }, 'the redeliver over the cap dropped');
    expect(over.attempts).toHaveLength(CAP);
    expect(suite.requestsTo('/again')).toHaveLength(CAP);
  });
});
